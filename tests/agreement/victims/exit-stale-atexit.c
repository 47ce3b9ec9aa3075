/*
 * exit-stale-atexit.c - an atexit() handler allocates a 100-byte
 * block, copies its pointer into every slot of a 4 KiB local array and
 * returns; the process then ends. The rest of the exit path runs over the
 * dead frame of the handler, and what it does not overwrite still holds
 * the pointer. Those copies are garbage: the block is lost. Mirrors
 * the atexit half of LSan's Linux/exit_atexit_stale_stack (at the end of the exit path instead of its beginning).
 *
 * A correct checker: definitely lost 100 bytes in 1 block; exit status 23.
 *
 * EXPECT: definitely-lost 100 1; rc 23
 */
#include "agree.h"

static void at_end(void)
{
	void *slots[512];
	void *p = malloc(100);
	for (int i = 0; i < 512; i++)
		slots[i] = p;
	agree_escape(slots);
	agree_clear_scratch();
}

int main(void)
{
	atexit(at_end);
	agree_clear_scratch();
	return 0;
}
