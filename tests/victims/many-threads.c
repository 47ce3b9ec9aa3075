/*
 * many-threads: 2,000 short-lived threads, 8 alive at a time. Each makes
 * and frees 100 blocks; every 100th thread (20 in all) also leaks 48 bytes
 * from thread_leak. Exactly 20 x 48 = 960 bytes leak.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 2000
#define WAVE 8

__attribute__((noinline)) static void *thread_leak(long i)
{
	return memset(malloc(48), (int)i, 48);
}

static void *body(void *arg)
{
	long i = (long)arg;
	void *b[100];

	for (int k = 0; k < 100; k++)
		b[k] = malloc(16 + (size_t)k);
	for (int k = 0; k < 100; k++)
		free(b[k]);
	return i % 100 == 0 ? thread_leak(i) : NULL;
}

int main(void)
{
	pthread_t t[WAVE];
	int leaked = 0;

	for (long i = 0; i < THREADS; i += WAVE) {
		for (int w = 0; w < WAVE; w++)
			if (pthread_create(&t[w], NULL, body, (void *)(i + w)) != 0)
				return 2;
		for (int w = 0; w < WAVE; w++) {
			void *r;
			pthread_join(t[w], &r);
			leaked += r != NULL;
		}
	}
	printf("%d threads, %d leaked blocks\n", THREADS, leaked);
	return 0;
}
