/*
 * fork-threads: fork() while other threads are busy in malloc/free, so a
 * fork can happen in the middle of their recording. 3 threads churn; main
 * forks 10 children one after the other; child i leaks 700 + i bytes
 * (child_leak) and exits with i. The parent leaks nothing of its own and
 * returns 0 once every child exited with its number.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 10

static atomic_int stop;

static void *churn(void *arg)
{
	unsigned x = (unsigned)(long)arg;
	void *keep[64] = {0};

	while (!atomic_load(&stop)) {
		x = x * 1103515245u + 12345u;
		int s = (int)((x >> 8) % 64);
		free(keep[s]);
		keep[s] = malloc(16 + (x >> 12) % 2000);
	}
	for (int s = 0; s < 64; s++)
		free(keep[s]);
	return NULL;
}

__attribute__((noinline)) static void *child_leak(int i)
{
	char *p = malloc(700 + (size_t)i);
	memset(p, i, 700 + (size_t)i);
	return p;
}

int main(void)
{
	pthread_t t[3];
	int bad = 0;

	for (long k = 0; k < 3; k++)
		pthread_create(&t[k], NULL, churn, (void *)(k + 1));
	fflush(stdout);
	for (int i = 0; i < CHILDREN; i++) {
		pid_t pid = fork();
		int status;
		if (pid == 0) {
			void *p = child_leak(i);
			printf("child %d pid %d %p\n", i, (int)getpid(), p);
			fflush(stdout);
			_exit(i);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)
		    || WEXITSTATUS(status) != i)
			bad = 1;
	}
	atomic_store(&stop, 1);
	for (int k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
	printf("parent %d %s\n", (int)getpid(), bad ? "a child failed" : "ok");
	return bad;
}
