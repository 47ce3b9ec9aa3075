/*
 * large-lost.c - a lost 32 MiB block (glibc maps it on its own, outside
 * the heap) is reported like a small one: no internal structure of the
 * allocator or of the checker may keep it reachable. Mirrors LSan's
 * large_allocation_leak.
 *
 * A correct checker: definitely lost 33,554,432 bytes in 1 block; exit
 * status 23.
 *
 * EXPECT: definitely-lost 33554432 1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static void lose(void)
{
	void *p = malloc(32u << 20);
	agree_escape(p);
}

int main(void)
{
	lose();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
