/* attach-churn.c - a program leakscope does not start whose heap never
 * rests: three threads and the main one allocate and free blocks of many
 * sizes (some mmapped) until a line comes on stdin, then it frees
 * everything and exits 0 with "done". A check may stop a thread inside
 * malloc or free. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 256

static volatile int stop;

static void churn(unsigned seed)
{
	void *slot[SLOTS] = {0};
	while (!stop) {
		int i = rand_r(&seed) % SLOTS;
		free(slot[i]);
		size_t size = rand_r(&seed) % 4 == 0 ? (size_t)(rand_r(&seed) % 300000)
						       : (size_t)(rand_r(&seed) % 600);
		if ((slot[i] = malloc(size)))
			memset(slot[i], 1, size < 64 ? size : 64);
	}
	for (int i = 0; i < SLOTS; i++)
		free(slot[i]);
}

static void *worker(void *arg)
{
	churn((unsigned)(long)arg);
	return NULL;
}

static void *reader(void *arg)
{
	char line[64];
	(void)arg;
	if (!fgets(line, sizeof(line), stdin))
		exit(2);
	stop = 1;
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	for (long i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(i + 1)) != 0)
			return 1;
	if (pthread_create(&t[3], NULL, reader, NULL) != 0)
		return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	churn(99);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
