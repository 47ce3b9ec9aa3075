/*
 * stress-reuse: address reuse across threads. 4 threads make 1,000,000
 * allocations in all (250,000 each, 16..527 bytes) and hand every block, in
 * batches of 1,000, to the next thread, which frees it. So each block is
 * freed by another thread than the one that allocated it, and freed
 * addresses come back at once from the freeing thread's cache: an address
 * is allocated in thread A, freed in B, allocated again in B, freed in C...
 * The batches themselves are malloc'ed by the sender, freed by the receiver.
 *
 * Thread k (0..3) then leaks k+1 blocks of 333 bytes from stress_leak():
 * exactly 10 blocks, 3,330 bytes, are left at exit.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define PER_THREAD 250000
#define BATCH 1000

struct batch {
	struct batch *next;
	int n;
	void *p[BATCH];
};

struct queue {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct batch *head, *tail;
} queues[THREADS];

static void push(struct queue *q, struct batch *b)
{
	b->next = NULL;
	pthread_mutex_lock(&q->lock);
	if (q->tail)
		q->tail->next = b;
	else
		q->head = b;
	q->tail = b;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* Take every queued batch; wait for one if wait is set. */
static struct batch *take(struct queue *q, int wait)
{
	struct batch *b;

	pthread_mutex_lock(&q->lock);
	while (wait && !q->head)
		pthread_cond_wait(&q->cond, &q->lock);
	b = q->head;
	q->head = q->tail = NULL;
	pthread_mutex_unlock(&q->lock);
	return b;
}

static int release(struct batch *b)
{
	int n = 0;

	while (b) {
		struct batch *next = b->next;
		for (int i = 0; i < b->n; i++)
			free(b->p[i]);
		n += b->n;
		free(b);
		b = next;
	}
	return n;
}

__attribute__((noinline)) static void *stress_leak(int k)
{
	char *p = malloc(333); /* LINE:stress-malloc */
	memset(p, k, 333);
	return p;
}

static void *worker(void *arg)
{
	int k = (int)(long)arg, freed = 0;
	struct queue *out = &queues[(k + 1) % THREADS], *in = &queues[k];
	void **leaks;

	for (int made = 0; made < PER_THREAD; made += BATCH) {
		struct batch *b = malloc(sizeof *b);
		b->n = BATCH;
		for (int i = 0; i < BATCH; i++) {
			size_t n = 16 + (size_t)((made + i) * 7 + k) % 512;
			b->p[i] = malloc(n);
			*(char *)b->p[i] = (char)i;
		}
		push(out, b);
		freed += release(take(in, 0));
	}
	while (freed < PER_THREAD)
		freed += release(take(in, 1));

	leaks = calloc(k + 1, sizeof *leaks);
	for (int i = 0; i <= k; i++)
		leaks[i] = stress_leak(k);
	printf("thread %d freed %d, leaked %d x 333 (first %p)\n", k, freed, k + 1, leaks[0]);
	free(leaks);
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int k = 0; k < THREADS; k++) {
		pthread_mutex_init(&queues[k].lock, NULL);
		pthread_cond_init(&queues[k].cond, NULL);
	}
	for (int k = 0; k < THREADS; k++)
		pthread_create(&t[k], NULL, worker, (void *)(long)k);
	for (int k = 0; k < THREADS; k++)
		pthread_join(t[k], NULL);
	return 0;
}
