/* proc-loops.c - the process-heavy loops of bench/process-heavy.sh.
 *
 *   proc-loops fork N     N times: fork a child that mallocs, frees, mallocs
 *                         and exits; the parent waits for it
 *   proc-loops exec N     N times: fork, exec /bin/true in the child, wait
 *   proc-loops thread N   N times: pthread_create a thread that mallocs and
 *                         frees, then pthread_join it
 *   proc-loops malloc N   N times: malloc(64) and free (the C twin of the
 *                         cgo loop in bench/cgo-alloc)
 *
 * Prints one line (what ran, how many times) so that a run that stopped
 * early shows. Exit status 0 when every step succeeded. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile sink;

static int wait_ok(pid_t pid)
{
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void *thread_body(void *arg)
{
	char *p = malloc(128);
	memset(p, 1, 128);
	sink = p;
	free(p);
	return arg;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: proc-loops fork|exec|thread|malloc N\n");
		return 2;
	}
	long n = atol(argv[2]);
	for (long i = 0; i < n; i++) {
		if (strcmp(argv[1], "fork") == 0) {
			pid_t pid = fork();
			if (pid == 0) {
				char *p = malloc(256);
				memset(p, 2, 256);
				sink = p;
				free(p);
				sink = malloc(32);	/* left for exit */
				_exit(0);
			}
			if (wait_ok(pid))
				return 1;
		} else if (strcmp(argv[1], "exec") == 0) {
			pid_t pid = fork();
			if (pid == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			if (wait_ok(pid))
				return 1;
		} else if (strcmp(argv[1], "thread") == 0) {
			pthread_t t;
			if (pthread_create(&t, NULL, thread_body, NULL) ||
			    pthread_join(t, NULL))
				return 1;
		} else if (strcmp(argv[1], "malloc") == 0) {
			void *p = malloc(64);
			sink = p;
			free(p);
		} else {
			fprintf(stderr, "proc-loops: unknown loop '%s'\n", argv[1]);
			return 2;
		}
	}
	printf("%s x %ld\n", argv[1], n);
	return 0;
}
