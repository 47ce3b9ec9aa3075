/* wrappers: leaks made through the program's own allocation wrappers,
 * from many stacks of one function, and from a thread.
 *
 *   what                              bytes   objects  where the program allocated
 *   xmalloc(1500) in make_table       1,500   1        make_table
 *   xstrdup(30 bytes) in make_name      31    2        make_name (two call sites)
 *   nest(d) for d = 0 .. 11           12 x 100         nest (12 stacks: each depth)
 *   in a thread: xmalloc(700)           700   1        worker
 *
 * 16 allocation sites in all; --gen-suppressions needs 4 lines. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *keep[32];
static int kept;

__attribute__((noinline)) static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		abort();
	return p;
}

__attribute__((noinline)) static char *xstrdup(const char *s)
{
	char *p = xmalloc(strlen(s) + 1);
	return strcpy(p, s);
}

__attribute__((noinline)) static void make_table(void)
{
	keep[kept++] = xmalloc(1500); /* LINE:table */
}

__attribute__((noinline)) static void make_name(void)
{
	keep[kept++] = xstrdup("a name of thirty bytes, padded");
	keep[kept++] = xstrdup("a name of thirty bytes, padde2");
}

/* a block of 100 bytes at the bottom of d calls: a stack of its own for
 * each d */
__attribute__((noinline)) static void nest(int d)
{
	if (d > 0)
		nest(d - 1);
	else
		keep[kept++] = malloc(100);
}

static void *worker(void *arg)
{
	(void)arg;
	return xmalloc(700);
}

int main(void)
{
	pthread_t t;
	void *from_thread;
	make_table();
	make_name();
	for (int d = 0; d < 12; d++)
		nest(d);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, &from_thread);
	printf("kept %d blocks and %p\n", kept, from_thread);
	memset(keep, 0, sizeof(keep)); /* every block is lost */
	from_thread = NULL;
	return 0;
}
