/*
 * possible-tree.c - what is reachable from a possibly-lost block is possibly
 * lost too, as valgrind's memcheck classes it; what is reachable only from
 * a definitely lost block is indirectly lost. Sizes identify the blocks:
 *   1100 reached only through a global pointing into its middle: possible
 *   1200 its child (a start pointer in 1100): possible
 *   1300 the child of 1200: possible
 *   1400 reached only through a tagged pointer (address + 5 in the low
 *        bits, like an Emacs Lisp_Object held in a global): possible
 *   1500 its child: possible
 *   1600 no pointer anywhere: definitely lost
 *   1700 its child: indirectly lost
 *   1800 a child of both 1200 (possible) and 1600 (lost): possible
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *volatile middle;        /* into 1100 */
static volatile uintptr_t tagged;    /* 1400 + 5 */

static void scrub(void)
{
	volatile char wipe[4096];
	memset((char *)wipe, 0, sizeof(wipe));
}

static void **block(size_t n)
{
	void **b = calloc(1, n);
	if (!b)
		abort();
	return b;
}

__attribute__((noinline)) static void through_middle(void **shared)
{
	void **a = block(1100), **b = block(1200), **c = block(1300);
	a[0] = b;
	b[0] = c;
	b[1] = shared;
	middle = (char *)a + 512;
}

__attribute__((noinline)) static void through_tag(void)
{
	void **f = block(1400), **g = block(1500);
	f[0] = g;
	tagged = (uintptr_t)f + 5;
}

__attribute__((noinline)) static void **lost(void)
{
	void **d = block(1600), **e = block(1700), **h = block(1800);
	d[0] = e;
	d[1] = h;
	return h;
}

int main(void)
{
	through_middle(lost());
	through_tag();
	scrub();
	return 0;
}
