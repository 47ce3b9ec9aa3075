/*
 * threads: two threads leak.
 *   worker_leak   5,005 bytes, the thread is joined before main returns
 *   blocked_leak  6,006 bytes, the thread is still blocked in read() when
 *                 main returns (it is never joined)
 * A third thread allocates and frees 10,000 blocks; nothing of it is leaked.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static sem_t allocated;
static int never[2];

__attribute__((noinline)) static void *worker_leak(void *arg)
{
	char *p = malloc(5005); /* LINE:worker-malloc */
	memset(p, 1, 5005);
	return p;
}

__attribute__((noinline)) static void *blocked_leak(void *arg)
{
	char c;
	char *p = malloc(6006); /* LINE:blocked-malloc */
	memset(p, 2, 6006);
	printf("blocked thread holds %p\n", (void *)p);
	fflush(stdout);
	sem_post(&allocated);
	while (read(never[0], &c, 1) != 0)
		;
	return p;
}

static void *churn(void *arg)
{
	for (int i = 0; i < 10000; i++)
		free(malloc(16 + i % 512));
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;
	void *ret;

	if (pipe(never) != 0 || sem_init(&allocated, 0, 0) != 0)
		return 2;
	pthread_create(&a, NULL, worker_leak, NULL);
	pthread_create(&b, NULL, blocked_leak, NULL);
	pthread_create(&c, NULL, churn, NULL);
	pthread_join(a, &ret);
	pthread_join(c, NULL);
	printf("joined worker, its block %p\n", ret);
	sem_wait(&allocated);
	return 0;
}
