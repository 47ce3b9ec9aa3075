/*
 * ignore-object.c - a block passed to agree_ignore() (leakscope_ignore,
 * __lsan_ignore_object) is kept on purpose: it is never listed, in no
 * class, not even as still reachable under --show-reachable, though the
 * program drops its pointer; the 666-byte block it points to is
 * reachable through it. A 1,337-byte block is lost. Mirrors LSan's
 * ignore_object (valgrind has no such API: n/a).
 *
 * A correct checker: definitely lost 1,337 bytes in 1 block; no group of
 * 4,104-byte blocks listed; the 666-byte block still reachable; exit
 * status 23.
 *
 * TOOLS: leakscope lsan
 * EXPECT: definitely-lost 1337 1; hidden 4104; still-reachable >=666 >=1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static void make(void)
{
	void **kept = malloc(4104);
	*kept = malloc(666);
	agree_ignore(kept);
	void *lost = malloc(1337);
	agree_escape(kept);
	agree_escape(lost);
}

int main(void)
{
	make();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
