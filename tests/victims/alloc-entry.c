/*
 * alloc-entry: every allocator entry point, each leaking exactly one block of
 * a size of its own from a function of its own (leak_<entry point>), while
 * the other blocks it gets from that entry point are freed.
 *
 *   malloc            1001        leak_malloc
 *   calloc            3 x 337     leak_calloc
 *   realloc grow      100 -> 3001 leak_realloc_grow   (first block: prealloc_block)
 *   realloc shrink   5000 -> 3002 leak_realloc_shrink (first block: prealloc_block)
 *   realloc move       64 -> 3003 leak_realloc_move   (a neighbour forces the move)
 *   realloc(NULL, n)  3004        leak_realloc_null
 *   realloc(p, 0)     3005        freed (glibc frees p and returns NULL)
 *   reallocarray      7 x 301     leak_reallocarray
 *   posix_memalign    1104        leak_posix_memalign (64-aligned)
 *   aligned_alloc     1280        leak_aligned_alloc  (128-aligned)
 *   memalign          1300        leak_memalign       (256-aligned)
 *   valloc            1400        leak_valloc
 *   pvalloc           1500        leak_pvalloc        (glibc rounds to a page)
 *   strdup            1600        leak_strdup
 *   strndup           1700        leak_strndup
 *   getline           (120)       leak_getline        (glibc's first buffer)
 *   asprintf          1900        leak_asprintf
 *
 * 16 blocks are leaked in all. Every pointer is printed so none is dropped.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static void keep(const char *what, void *p)
{
	if (!p) {
		fprintf(stderr, "alloc-entry: %s failed\n", what);
		exit(2);
	}
	printf("%-16s %p\n", what, p);
}

NOINLINE static void *prealloc_block(size_t n)
{
	void *p = malloc(n);
	memset(p, 1, n);
	return p;
}

NOINLINE static void leak_malloc(void)
{
	free(malloc(1002));
	keep("malloc", malloc(1001)); /* LINE:malloc */
	free(malloc(1003));
}

NOINLINE static void leak_calloc(void)
{
	free(calloc(3, 338));
	keep("calloc", calloc(3, 337)); /* LINE:calloc */
}

NOINLINE static void leak_realloc_grow(void)
{
	void *p = prealloc_block(100);
	keep("realloc-grow", realloc(p, 3001)); /* LINE:realloc-grow */
	free(realloc(prealloc_block(100), 3011));
}

NOINLINE static void leak_realloc_shrink(void)
{
	void *p = prealloc_block(5000);
	keep("realloc-shrink", realloc(p, 3002)); /* LINE:realloc-shrink */
	free(realloc(prealloc_block(5000), 3012));
}

NOINLINE static void leak_realloc_move(void)
{
	void *p = prealloc_block(64);
	void *neighbour = malloc(64); /* p cannot grow in place */
	void *q = realloc(p, 3003); /* LINE:realloc-move */
	keep("realloc-move", q);
	printf("realloc-move moved=%d\n", q != p);
	free(neighbour);
}

NOINLINE static void leak_realloc_null(void)
{
	keep("realloc-null", realloc(NULL, 3004)); /* LINE:realloc-null */
	free(realloc(NULL, 3014));
}

NOINLINE static void free_by_realloc_zero(void)
{
	void *p = malloc(3005);
	void *q = realloc(p, 0);
	printf("realloc-zero     %p\n", q);
	free(q); /* NULL with glibc; a minimal block elsewhere */
}

NOINLINE static void leak_reallocarray(void)
{
	void *p = reallocarray(NULL, 7, 301); /* LINE:reallocarray */
	keep("reallocarray", p);
	free(reallocarray(NULL, 7, 302));
}

NOINLINE static void leak_posix_memalign(void)
{
	void *p = NULL, *q = NULL;
	if (posix_memalign(&p, 64, 1104) != 0) /* LINE:posix_memalign */
		p = NULL;
	keep("posix_memalign", p);
	if (posix_memalign(&q, 64, 1105) == 0)
		free(q);
}

NOINLINE static void leak_aligned_alloc(void)
{
	keep("aligned_alloc", aligned_alloc(128, 1280)); /* LINE:aligned_alloc */
	free(aligned_alloc(128, 1408));
}

NOINLINE static void leak_memalign(void)
{
	keep("memalign", memalign(256, 1300)); /* LINE:memalign */
	free(memalign(256, 1301));
}

NOINLINE static void leak_valloc(void)
{
	keep("valloc", valloc(1400)); /* LINE:valloc */
	free(valloc(1401));
}

NOINLINE static void leak_pvalloc(void)
{
	keep("pvalloc", pvalloc(1500)); /* LINE:pvalloc */
	free(pvalloc(1501));
}

static char text[2048];

NOINLINE static void leak_strdup(void)
{
	memset(text, 'x', 1599);
	text[1599] = '\0';
	keep("strdup", strdup(text)); /* LINE:strdup */
	free(strdup(text));
}

NOINLINE static void leak_strndup(void)
{
	memset(text, 'y', 2000);
	text[2000] = '\0';
	keep("strndup", strndup(text, 1699)); /* LINE:strndup */
	free(strndup(text, 1698));
}

NOINLINE static void leak_getline(void)
{
	static char lines[] = "first line\nsecond line\n";
	FILE *f = fmemopen(lines, sizeof lines - 1, "r");
	char *kept = NULL, *freed = NULL;
	size_t n1 = 0, n2 = 0;

	if (!f)
		exit(2);
	if (getline(&kept, &n1, f) < 0) /* LINE:getline */
		exit(2);
	if (getline(&freed, &n2, f) < 0)
		exit(2);
	fclose(f);
	free(freed);
	keep("getline", kept);
	printf("getline-size     %zu\n", n1);
}

NOINLINE static void leak_asprintf(void)
{
	char *s = NULL, *t = NULL;
	if (asprintf(&s, "%0*d", 1899, 7) < 0) /* LINE:asprintf */
		s = NULL;
	keep("asprintf", s);
	if (asprintf(&t, "%0*d", 1898, 7) >= 0)
		free(t);
}

int main(void)
{
	leak_malloc();
	leak_calloc();
	leak_realloc_grow();
	leak_realloc_shrink();
	leak_realloc_move();
	leak_realloc_null();
	free_by_realloc_zero();
	leak_reallocarray();
	leak_posix_memalign();
	leak_aligned_alloc();
	leak_memalign();
	leak_valloc();
	leak_pvalloc();
	leak_strdup();
	leak_strndup();
	leak_getline();
	leak_asprintf();
	return 0;
}
