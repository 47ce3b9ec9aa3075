/*
 * self-pointer.c - a lost block whose first word points to itself: a
 * pointer from inside the block does not make it reachable, nor
 * indirectly lost (only pointers from other blocks do). Mirrors LSan's
 * pointer_to_self.
 *
 * A correct checker: definitely lost 1,344 bytes in 1 block; exit status
 * 23.
 *
 * EXPECT: definitely-lost 1344 1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static void lose(void)
{
	void **p = malloc(1344);
	*p = p;
	agree_escape(p);
}

int main(void)
{
	lose();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
