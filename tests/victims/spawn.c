/*
 * spawn PROG: run PROG with posix_spawn() (glibc: clone with CLONE_VM |
 * CLONE_VFORK, no fork handlers) and then with system(); wait for both.
 * Leaks nothing itself.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	char cmd[4200];
	pid_t pid;
	int status;

	if (argc < 2)
		return 2;
	char *args[] = {argv[1], "spawned", NULL};
	if (posix_spawn(&pid, argv[1], NULL, NULL, args, environ) != 0)
		return 2;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 2;
	printf("spawned %d\n", (int)pid);
	fflush(stdout);
	snprintf(cmd, sizeof cmd, "'%s' by-system", argv[1]);
	return system(cmd) == 0 ? 0 : 2;
}
