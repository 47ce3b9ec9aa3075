/*
 * exec-child PROGRAM ARGS...: fork (not vfork: the child is a process of
 * its own under leakscope), the child allocates and executes PROGRAM, the
 * parent waits and prints the child's status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		free(malloc(7));
		execv(argv[1], argv + 1);
		_exit(127);
	}
	int st = 0;
	waitpid(p, &st, 0);
	printf("child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}
