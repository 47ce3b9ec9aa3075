/*
 * return-stale-main.c - main itself copies the only pointer to a 100-byte
 * block into every slot of a 4 KiB local array, then returns. Its frame
 * is dead from then on; the C library calls exit(), whose frames are laid
 * over main's, and what they do not overwrite still holds the pointer.
 * Those copies are garbage: the block is lost. Mirrors LSan's
 * Linux/exit_atexit_stale_stack (its return-from-main run) and the last
 * block of valgrind's pointer-trace (lost in a local of main).
 *
 * A correct checker: definitely lost 100 bytes in 1 block; exit status 23.
 *
 * EXPECT: definitely-lost 100 1; rc 23
 */
#include "agree.h"

int main(void)
{
	void *slots[512];
	void *p = malloc(100);
	for (int i = 0; i < 512; i++)
		slots[i] = p;
	agree_escape(slots);
	agree_clear_scratch();
	return 0;
}
