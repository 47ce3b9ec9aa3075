/*
 * disable-scope.c - a block allocated between agree_disable() and
 * agree_enable() (leakscope_disable/_enable, __lsan_disable/_enable) is
 * not checked: it is never reported, though the program drops its
 * pointer, and a 666-byte block it points to is reachable through it. A
 * 1,337-byte block lost outside the scope is reported. Mirrors LSan's
 * disabler.c and disabler.cpp (valgrind has no such API: n/a).
 *
 * A correct checker: definitely lost 1,337 bytes in 1 block; the 666-byte
 * block still reachable; exit status 23.
 *
 * TOOLS: leakscope lsan
 * EXPECT: definitely-lost 1337 1; still-reachable >=666 >=1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static void make(void)
{
	agree_disable();
	void **quiet = malloc(sizeof(void *));
	agree_enable();
	*quiet = malloc(666);
	void *lost = malloc(1337);
	agree_escape(quiet);
	agree_escape(lost);
}

int main(void)
{
	make();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
