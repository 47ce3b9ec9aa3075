/*
 * unaligned-global.c - the only copy of a block's address is stored at an
 * odd offset of a global array. Leak checkers read memory as aligned
 * words (LSan's use_unaligned=0 and valgrind by default): such a copy is
 * no reference, and the block is lost. Mirrors LSan's use_unaligned (its
 * default run reports the leak).
 *
 * A correct checker (by that convention): definitely lost 1,343 bytes in
 * 1 block; exit status 23.
 *
 * EXPECT: definitely-lost 1343 1; rc 23
 */
#include "agree.h"

char odd_place[2 * sizeof(void *)] __attribute__((aligned(16)));

__attribute__((noinline)) static void hide(void)
{
	void *p = malloc(1343);
	memcpy(odd_place + 1, &p, sizeof(p));
}

int main(void)
{
	hide();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
