/* exec-second: leak 9,119 bytes (second_leak) and exit with 7. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static void *second_leak(void)
{
	char *p = malloc(9119); /* LINE:second-malloc */
	memset(p, 4, 9119);
	return p;
}

int main(void)
{
	printf("second image %d holds %p\n", (int)getpid(), second_leak());
	return 7;
}
