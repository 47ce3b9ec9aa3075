/* forked-heap.c - a daemon-like program: it allocates, forks, and its
 * child grows the heap well past where it was at the fork (64 blocks of
 * 60,000 bytes held by a global), then loses 9 blocks of 7,777 bytes.
 * A forked child cannot grow the brk area in place in the mapping it
 * shares with its parent, so its [heap] shows as two lines of
 * /proc/PID/maps. The child says "ready PID" (its own pid), waits for a
 * line on stdin, frees what it holds and ends with "done"; the parent
 * waits for it and exits with its status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *before[16], *held[64];

__attribute__((noinline)) static void lose(size_t size, int n)
{
	for (int i = 0; i < n; i++)
		memset(malloc(size), 0x5a, size);
}

static int child(void)
{
	char line[16];
	for (int i = 0; i < 64; i++)
		memset(held[i] = malloc(60000), 1, 60000);
	lose(7777, 9);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (int i = 0; i < 64; i++)
		free(held[i]);
	printf("done\n");
	return 0;
}

int main(void)
{
	for (int i = 0; i < 16; i++)
		memset(before[i] = malloc(1000), 2, 1000);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		return child();
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	for (int i = 0; i < 16; i++)
		free(before[i]);
	return WEXITSTATUS(status);
}
