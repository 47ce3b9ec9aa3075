/*
 * exit-stale-helper.c - a helper called by main copies the only pointer to
 * a 100-byte block into every slot of a 4 KiB local array and returns;
 * main then calls exit(0). exit()'s own frames (exit, the exit handlers,
 * the C library's cleanup) are laid over the helper's dead frame, and
 * whatever of it they do not overwrite - padding, slots not yet written -
 * still holds the pointer. Those copies are garbage: the block is lost.
 * Mirrors LSan's Linux/exit_atexit_stale_stack (its explicit exit() run),
 * which sprays one slot where we spray all.
 *
 * A correct checker: definitely lost 100 bytes in 1 block; exit status 23.
 *
 * EXPECT: definitely-lost 100 1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static void spray(void)
{
	void *slots[512];
	void *p = malloc(100);
	for (int i = 0; i < 512; i++)
		slots[i] = p;
	agree_escape(slots);
}

int main(void)
{
	spray();
	agree_clear_scratch();
	exit(0);
}
