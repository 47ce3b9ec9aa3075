/*
 * fork-killed N: a parent busy with signals (a SIGALRM every 0.2 ms, whose
 * handler allocates) forks N children one after the other. Every third
 * child is killed by the parent right after fork, most often before it
 * could run a line of its own; the others allocate 100 + i bytes and die
 * of SIGKILL (odd i) or SIGSEGV (even i). Every one of the N + 1
 * processes must be in the report: reported, or listed as unreported with
 * the reason.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long ticks;

static void on_alarm(int sig)
{
	ticks++;
	free(malloc(32));
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	struct sigaction sa = {.sa_handler = on_alarm, .sa_flags = SA_RESTART};
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {{0, 200}, {0, 200}};
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0) {
			signal(SIGALRM, SIG_IGN);
			void *leak = malloc(100 + (size_t)i);
			memset(leak, 1, 100 + (size_t)i);
			if (i % 2)
				kill(getpid(), SIGKILL);
			else
				raise(SIGSEGV);
			_exit(0);
		}
		if (i % 3 == 0)
			kill(p, SIGKILL);
		int st;
		while (waitpid(p, &st, 0) < 0)
			;
	}
	printf("forked %d\n", n);
	return 0;
}
