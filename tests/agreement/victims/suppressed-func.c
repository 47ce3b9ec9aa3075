/*
 * suppressed-func.c - a suppression of one allocating function
 * (leaky_helper: leak:*leaky_helper* for leakscope and LSan, a
 * Memcheck:Leak entry with fun:leaky_helper for valgrind): its lost
 * 666-byte block is not reported, nor the 777-byte block reachable only
 * from it; a 1,337-byte block lost elsewhere is. Mirrors LSan's
 * suppressions_file, suppressions_default and print_suppressions.
 *
 * A correct checker: definitely lost 1,337 bytes in 1 block; exit status
 * 23.
 *
 * SUPP: leaky_helper
 * EXPECT: definitely-lost 1337 1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) void *leaky_helper(void)
{
	void *p = malloc(666);
	agree_escape(p);
	return p;
}

__attribute__((noinline)) static void fill(void)
{
	void **p = leaky_helper();
	*p = malloc(777);
	agree_escape(p);
}

__attribute__((noinline)) static void lose(void)
{
	void *q = malloc(1337);
	agree_escape(q);
}

int main(void)
{
	fill();
	lose();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
