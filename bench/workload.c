/*
 * workload.c - an allocation-heavy program for comparing leak checkers.
 *
 * 2 threads; each makes 1,000,000 malloc/free pairs. Every allocation is
 * made at the bottom of a recursion of noinline functions 1 to 24 frames
 * deep (the depth cycles), so an unwinder does real work and the number of
 * distinct stacks stays small. Up to 256 blocks per thread are live at a
 * time; all are freed at the end, so a correct checker reports nothing.
 *
 *   workload [ALLOCATIONS-PER-THREAD]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 2
#define LIVE 256
#define MAX_DEPTH 24

static long per_thread = 1000000;

struct state {
	void *live[LIVE];
	unsigned x;
	long bytes;
};

__attribute__((noinline)) static void *alloc_at(struct state *s, int depth);

/* Two mutually recursive functions so frames differ along the way. */
__attribute__((noinline)) static void *down_a(struct state *s, int depth)
{
	void *p = alloc_at(s, depth - 1);
	__asm__ volatile("" ::: "memory"); /* no tail call */
	return p;
}

__attribute__((noinline)) static void *down_b(struct state *s, int depth)
{
	void *p = alloc_at(s, depth - 1);
	__asm__ volatile("" ::: "memory");
	return p;
}

__attribute__((noinline)) static void *alloc_at(struct state *s, int depth)
{
	if (depth > 0)
		return (depth & 1) ? down_a(s, depth) : down_b(s, depth);
	s->x = s->x * 1103515245u + 12345u;
	size_t n = 8 + (s->x >> 16) % 1024;
	char *p = malloc(n);
	p[0] = (char)n;
	s->bytes += (long)n;
	return p;
}

static void *worker(void *arg)
{
	struct state *s = arg;

	for (long i = 0; i < per_thread; i++) {
		int slot = (int)(i % LIVE);
		free(s->live[slot]);
		s->live[slot] = alloc_at(s, (int)(i % MAX_DEPTH));
	}
	for (int k = 0; k < LIVE; k++)
		free(s->live[k]);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[THREADS];
	struct state *s = calloc(THREADS, sizeof *s);
	long bytes = 0;

	if (argc > 1)
		per_thread = atol(argv[1]);
	for (int k = 0; k < THREADS; k++) {
		s[k].x = 17u + (unsigned)k;
		pthread_create(&t[k], NULL, worker, &s[k]);
	}
	for (int k = 0; k < THREADS; k++) {
		pthread_join(t[k], NULL);
		bytes += s[k].bytes;
	}
	printf("workload: %d threads x %ld allocations, %ld bytes\n", THREADS, per_thread, bytes);
	free(s);
	return 0;
}
