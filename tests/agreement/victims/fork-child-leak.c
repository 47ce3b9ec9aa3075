/*
 * fork-child-leak.c - a child made by fork() (no exec) loses ten 1,337-byte
 * blocks and exits 0; the parent waits for it and exits with its status.
 * The child's leaks are found. Mirrors LSan's Linux/fork_and_leak.
 *
 * A correct checker: definitely lost 13,370 bytes in 10 blocks (in the
 * child); exit status 23.
 *
 * EXPECT: definitely-lost 13370 10; rc 23
 */
#include <sys/wait.h>

#include "agree.h"

__attribute__((noinline)) static void lose_ten(void)
{
	for (int i = 0; i < 10; i++) {
		void *p = malloc(1337);
		agree_escape(p);
	}
}

int main(void)
{
	pid_t pid = fork();
	if (pid < 0)
		agree_fail(__func__);
	if (pid == 0) {
		lose_ten();
		agree_wipe_stack();
		agree_clear_scratch();
		return 0;
	}
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		agree_fail(__func__);
	return WEXITSTATUS(status);
}
