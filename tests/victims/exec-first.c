/*
 * exec-first PROG ARGS...: leak 9,009 bytes (first_leak), then execv PROG.
 * The block dies with this image; it is not a leak of the process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static void *first_leak(void)
{
	char *p = malloc(9009);
	memset(p, 3, 9009);
	return p;
}

int main(int argc, char **argv)
{
	void *p = first_leak();

	if (argc < 2)
		return 2;
	printf("first image %d holds %p\n", (int)getpid(), p);
	fflush(stdout);
	execv(argv[1], argv + 1);
	perror("execv");
	return 2;
}
