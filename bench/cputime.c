/*
 * cputime.c - run a command and print, on one line to the file named by
 * its first argument, "WALL USER SYS MAXRSS-KB STATUS": seconds with
 * microseconds (getrusage of the child through wait4), where GNU time
 * rounds to 10 ms - too coarse for runs of 20 ms. The command's stdout
 * and stderr are its own.
 *
 *   cputime OUT COMMAND [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: cputime OUT COMMAND [ARGS...]\n");
		return 2;
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid) {
		perror("cputime");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	FILE *out = fopen(argv[1], "w");
	if (!out)
		return 2;
	fprintf(out, "%.6f %.6f %.6f %ld %d\n",
		(double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9,
		seconds(ru.ru_utime), seconds(ru.ru_stime), ru.ru_maxrss,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return fclose(out) ? 2 : 0;
}
