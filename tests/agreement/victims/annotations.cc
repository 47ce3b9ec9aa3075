/*
 * annotations.cc - blocks the program says are fine: two ignored with
 * agree_ignore() (one of them 4 MB, served by mmap), one allocated in a
 * disabled scope; every pointer to them is then dropped. Nothing is
 * reported, and the ignored blocks are listed in no class. Mirrors LSan's
 * lsan_annotations (valgrind has no such API: n/a).
 *
 * A correct checker: nothing lost; no group of 4,000,000-byte blocks
 * listed; exit status 0.
 *
 * TOOLS: leakscope lsan
 * EXPECT: hidden 4000000; rc 0
 */
#include "agree.h"

int *x, *y, *z;

int main()
{
	x = new int;
	agree_ignore(x);
	z = new int[1000000];
	agree_ignore(z);
	agree_disable();
	y = new int;
	agree_enable();
	x = y = z = nullptr;
	agree_clear_scratch();
	return 0;
}
