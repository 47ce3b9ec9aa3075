/*
 * cxx-new-array-0.cc - new T[0] of a type with a destructor: operator
 * new[] gets 8 bytes (the element count) and the program holds a pointer
 * to the end of that block - one past its last byte. The block is in use
 * (delete[] would free it), not lost. Mirrors LSan's new_array_with_dtor_0
 * and the "new MyClass[0]" of valgrind's leak_cpp_interior (which says
 * memcheck wrongly calls it definitely lost).
 *
 * A correct checker: nothing lost, nothing possibly lost; the 8-byte block
 * still reachable; exit status 0.
 *
 * EXPECT: still-reachable >=8 >=1; rc 0
 */
#include <cstdio>

#include "agree.h"

struct Tracked {
	~Tracked() { std::puts("~Tracked"); }
};

Tracked *none;

int main(int argc, char **argv)
{
	(void)argv;
	none = new Tracked[argc - 1];
	agree_escape(none);
	agree_clear_scratch();
	return 0;
}
