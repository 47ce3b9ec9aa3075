/*
 * global-dtor-drops.cc - a global object holds a 1,337-byte block and its
 * destructor forgets it (no free); main loses a 666-byte block. A check
 * at the very end - after global destructors, when nothing can use the
 * block any more - finds both lost. Mirrors LSan's do_leak_check_override
 * (its default, "strict" run).
 *
 * A correct checker: definitely lost 2,003 bytes in 2 blocks; exit status
 * 23.
 *
 * EXPECT: definitely-lost 2003 2; rc 23
 */
#include "agree.h"

struct Holder {
	void *p;
	Holder() : p(malloc(1337)) {}
	~Holder()
	{
		p = nullptr;
		agree_escape(&p);
	}
};

Holder holder;

__attribute__((noinline)) static void lose()
{
	void *q = malloc(666);
	agree_escape(q);
}

int main()
{
	lose();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
