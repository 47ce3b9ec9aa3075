/*
 * stale-callee-frame.c - a function with a 16 KiB frame allocates a block
 * (malloc's own frames lie below it, deeper still), keeps the only
 * pointer in the deepest slot of its frame and returns; then main
 * returns. A dead frame is no root, and this one lies deeper than the
 * exit path ever reaches. Mirrors LSan's stale_stack_leak.
 *
 * A correct checker: definitely lost 1,349 bytes in 1 block; exit status
 * 23.
 *
 * EXPECT: definitely-lost 1349 1; rc 23
 */
#include "agree.h"

void **stale_slot;

__attribute__((noinline)) static void put_far(void)
{
	void *locals[2048];
	locals[0] = malloc(1349);
	stale_slot = &locals[0];
	agree_escape(locals);
}

int main(void)
{
	put_far();
	agree_clear_scratch();
	return 0;
}
