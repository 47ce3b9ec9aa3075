/*
 * signal-storm-check.c - a leak check while a child process sends the
 * program SIGCHLD and SIGPROF (handled) as fast as it can: the check must
 * finish and find the 1,234-byte block the program lost before it (the
 * program keeps the block's address complemented, which is no pointer,
 * and frees it after the check). Mirrors LSan's
 * Linux/signal_during_stop_the_world.
 *
 * A correct checker: definitely lost 1,234 bytes in 1 block at the check,
 * nothing at the end; exit status 0 (valgrind counts a leak that a check
 * found among its errors: 23 there).
 *
 * EXPECT: definitely-lost 1234 1; rc 0
 * EXPECT-VALGRIND: definitely-lost 1234 1; rc 23
 */
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>

#include "agree.h"

static volatile uintptr_t complement;

static void on_signal(int sig)
{
	(void)sig;
}

__attribute__((noinline)) static void lose_for_now(void)
{
	void *p = malloc(1234);
	complement = ~(uintptr_t)p;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		agree_fail(__func__);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			kill(parent, SIGCHLD);
			kill(parent, SIGPROF);
		}
	}
	usleep(10 * 1000);
	lose_for_now();
	agree_wipe_stack();
	agree_clear_scratch();
	agree_check();
	free((void *)~complement);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0)
		;
	return 0;
}
