/*
 * keeps-going: a fixed amount of allocation work, whatever happens around
 * it - two threads churn through malloc/free (5,000,000 rounds each), a
 * forked child churns 2,000,000 rounds and exits 0, the main thread waits
 * for both; then it prints what it computed ("sum ...", the same on every
 * run) and exits 5. Used to kill leakscope while it runs: the program
 * must finish all the same, with its own output and status.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t churn(unsigned seed, long rounds)
{
	void *keep[32] = {0};
	uint64_t sum = 0;
	for (long i = 0; i < rounds; i++) {
		seed = seed * 1103515245u + 12345u;
		int s = (int)((seed >> 8) % 32);
		free(keep[s]);
		size_t n = 16 + (seed >> 12) % 500;
		keep[s] = malloc(n);
		memset(keep[s], (int)(i & 0xff), n);
		sum += ((unsigned char *)keep[s])[n - 1] + n;
	}
	for (int s = 0; s < 32; s++)
		free(keep[s]);
	return sum;
}

static void *worker(void *arg)
{
	uint64_t *sum = arg;
	*sum = churn((unsigned)*sum, 5000000);
	return NULL;
}

int main(void)
{
	pid_t child = fork();
	if (child == 0)
		_exit(churn(99, 2000000) == 0);
	uint64_t sums[2] = {1, 2};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &sums[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	int st = -1;
	waitpid(child, &st, 0);
	printf("sum %llu %llu child %d\n", (unsigned long long)sums[0],
	       (unsigned long long)sums[1], st);
	return 5;
}
