/*
 * malloc-zero-lost.c - a block of size 0 (malloc(0) returns a unique
 * pointer that must be freed) is lost: it counts as a leak of 0 bytes in
 * 1 block, and the run fails like for any other definitely lost block.
 * Mirrors LSan's malloc_zero (which counts such a block as 1 byte) and
 * the lost side of valgrind's leak-0.
 *
 * A correct checker: definitely lost 0 bytes in 1 block; exit status 23.
 *
 * EXPECT: definitely-lost 0 1; rc 23
 * EXPECT-LSAN: definitely-lost 1 1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static void lose_empty(void)
{
	void *p = malloc(0);
	agree_escape(p);
}

int main(void)
{
	lose_empty();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
