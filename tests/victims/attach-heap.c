/* attach-heap.c - a program leakscope does not start, whose heap has a
 * known content when it says "ready PID": in the main arena 7 blocks of
 * 1,111 bytes lost and 5 of 2,222 held by a global; a 200,000-byte block
 * (mmapped by itself) lost; from a second thread, in its own arena, 3
 * blocks of 3,333 bytes lost and 2 of 4,444 held; freed blocks in the
 * tcaches (100 bytes), the fast bins (40 bytes: more than a tcache
 * holds) and the bins (5,000 bytes). Then it waits for a line on stdin,
 * frees what it holds and exits 0 with "done". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *held[5], *thread_held[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int state; /* 1: the thread allocated; 2: it may end */

__attribute__((noinline)) static void lose(size_t size, int n)
{
	for (int i = 0; i < n; i++)
		memset(malloc(size), 0x5a, size);
}

/* Freed chunks of every kind, between blocks that stay so they stay apart. */
__attribute__((noinline)) static void free_some(size_t size, int n)
{
	void *p[16];
	for (int i = 0; i < n; i++)
		p[i] = malloc(size);
	for (int i = 0; i < n; i++)
		free(p[i]);
}

static void *worker(void *arg)
{
	(void)arg;
	lose(3333, 3);
	for (int i = 0; i < 2; i++)
		thread_held[i] = malloc(4444);
	free_some(100, 3);
	free_some(40, 10);
	pthread_mutex_lock(&lock);
	state = 1;
	pthread_cond_broadcast(&cond);
	while (state != 2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t;
	lose(1111, 7);
	for (int i = 0; i < 5; i++)
		held[i] = malloc(2222);
	lose(200000, 1);
	free_some(100, 3);
	free_some(40, 10);
	void *big = malloc(5000), *guard = malloc(16);
	free(big);
	if (pthread_create(&t, NULL, worker, NULL) != 0)
		return 1;
	pthread_mutex_lock(&lock);
	while (state != 1)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	char line[64];
	if (!fgets(line, sizeof(line), stdin))
		return 2;
	pthread_mutex_lock(&lock);
	state = 2;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	for (int i = 0; i < 5; i++)
		free(held[i]);
	for (int i = 0; i < 2; i++)
		free(thread_held[i]);
	free(guard);
	printf("done\n");
	return 0;
}
