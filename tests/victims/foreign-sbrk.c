/* foreign-sbrk.c - a program that moves the program break itself (sbrk)
 * between mallocs, so glibc's main heap goes on past the program's own
 * memory, behind a fencepost: a main heap that is not contiguous. Says
 * "ready PID", waits for a line on stdin, and ends with "done". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *held[64];

int main(void)
{
	char line[16];
	for (int i = 0; i < 8; i++)
		held[i] = malloc(1000);
	char *own = sbrk(40000);
	if (own == (void *)-1)
		return 1;
	memset(own, 0x11, 40000);
	for (int i = 8; i < 64; i++)
		held[i] = malloc(30000);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	printf("done\n");
	return 0;
}
