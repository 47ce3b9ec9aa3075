/*
 * deep-stacks.c - leaks at the bottom of deep, varied stacks, for comparing
 * the interposer's fast unwinder with libunwind: recursion through libc
 * callbacks (qsort, bsearch, dl_iterate_phdr), alloca, a large frame, and
 * a worker thread. Leak k (k = 0..39) is 1000 + k bytes, allocated at
 * depth 3 + k % 17 along the path that k's bits choose.
 */
#define _GNU_SOURCE
#include <alloca.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void walk(int depth, unsigned path, int k);

#define NEXT(depth, path, k) walk((depth) - 1, (path) >> 2, k)
#define BARRIER() __asm__ volatile("" ::: "memory")

static void *volatile sink[64]; /* not freed: each is reported */

__attribute__((noinline)) static void leak_here(int k)
{
	sink[k] = malloc(1000 + (size_t)k); /* LINE:deep-malloc */
	BARRIER();
}

struct down {
	int depth, k, done;
	unsigned path;
};
static struct down *cur;

static int cmp_down(const void *x, const void *y)
{
	if (cur && !cur->done) {
		struct down *d = cur;
		d->done = 1;
		cur = NULL;
		NEXT(d->depth, d->path, d->k);
	}
	return *(const int *)x - *(const int *)y;
}

__attribute__((noinline)) static void via_qsort(int depth, unsigned path, int k)
{
	int v[6] = {4, 1, 5, 2, 6, 3};
	struct down d = {depth, k, 0, path};
	cur = &d;
	qsort(v, 6, sizeof(int), cmp_down);
	BARRIER();
}

__attribute__((noinline)) static void via_bsearch(int depth, unsigned path, int k)
{
	static const int v[1] = {1};
	int key = 1;
	struct down d = {depth, k, 0, path};
	cur = &d;
	bsearch(&key, v, 1, sizeof(int), cmp_down);
	BARRIER();
}

static int phdr_down(struct dl_phdr_info *info, size_t size, void *p)
{
	struct down *d = p;
	if (!d->done) {
		d->done = 1;
		NEXT(d->depth, d->path, d->k);
	}
	return 0;
}

__attribute__((noinline)) static void via_phdr(int depth, unsigned path, int k)
{
	struct down d = {depth, k, 0, path};
	dl_iterate_phdr(phdr_down, &d);
	BARRIER();
}

__attribute__((noinline)) static void via_alloca(int depth, unsigned path, int k)
{
	volatile char *buf = alloca(32 + (size_t)depth * 40);
	buf[0] = 1;
	NEXT(depth, path, k);
	buf[1] = buf[0];
}

__attribute__((noinline)) static void via_big_frame(int depth, unsigned path, int k)
{
	volatile char buf[50000];
	buf[depth] = 1;
	NEXT(depth, path, k);
	buf[depth + 1] = buf[depth];
}

static void walk(int depth, unsigned path, int k)
{
	if (depth <= 0) {
		leak_here(k);
		return;
	}
	switch (path % 5) {
	case 0: via_qsort(depth, path, k); break;
	case 1: via_bsearch(depth, path, k); break;
	case 2: via_phdr(depth, path, k); break;
	case 3: via_alloca(depth, path, k); break;
	default: via_big_frame(depth, path, k); break;
	}
	BARRIER();
}

static void leaks(int from, int to)
{
	for (int k = from; k < to; k++)
		walk(3 + k % 17, (unsigned)k * 2654435761u, k);
}

static void *worker(void *arg)
{
	leaks(20, 40);
	return NULL;
}

int main(void)
{
	pthread_t t;
	leaks(0, 20);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}
