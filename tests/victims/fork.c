/*
 * fork: after fork() the parent leaks 7,007 bytes (parent_leak) and the
 * child 8,008 bytes (child_leak). Each prints "parent PID" / "child PID" to
 * stdout so a test can tell which process is which. The child exits with 0,
 * the parent waits for it and returns 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static void *parent_leak(void)
{
	char *p = malloc(7007); /* LINE:parent-malloc */
	memset(p, 1, 7007);
	return p;
}

__attribute__((noinline)) static void *child_leak(void)
{
	char *p = malloc(8008); /* LINE:child-malloc */
	memset(p, 2, 8008);
	return p;
}

int main(void)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		void *p = child_leak();
		printf("child %d %p\n", (int)getpid(), p);
		exit(0);
	}
	void *p = parent_leak();
	if (waitpid(pid, &status, 0) != pid)
		return 2;
	printf("parent %d %p\n", (int)getpid(), p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
