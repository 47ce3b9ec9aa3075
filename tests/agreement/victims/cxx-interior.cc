/*
 * cxx-interior.cc - C++ keeps pointers into the middle of blocks that are
 * in use: a reference-counted (pre-C++11 ABI) std::string points past its
 * 24-byte header; new[] of a type with a destructor returns the block
 * plus an 8-byte element count; a pointer to the second base of a class
 * with two polymorphic bases points past the first; a length-prefixed
 * buffer is handed out past its 8-byte length. Globals hold only those
 * pointers at the end. Mirrors valgrind's leak_cpp_interior (whose
 * default heuristics, stdstring, newarray, multipleinheritance and
 * length64, call these blocks reachable; LSan takes any interior pointer
 * for a pointer).
 *
 * A correct checker: nothing lost, nothing possibly lost; at least 168
 * bytes in 4 blocks still reachable; exit status 0.
 *
 * EXPECT: still-reachable >=168 >=4; rc 0
 */
#define _GLIBCXX_USE_CXX11_ABI 0
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "agree.h"

struct Counted {
	char c[5];
	~Counted() { c[0] = 0; }
};

struct Left {
	virtual ~Left() {}
	long l = 1;
};

struct Right {
	virtual ~Right() {}
	long r = 2;
};

struct Both : Left, Right {
	~Both() override {}
};

std::string *text;
Counted *counted;
Right *second_base;
char *payload;

__attribute__((noinline)) static void build()
{
	text = new std::string("a string long enough to live on the heap");
	text->append(" and shared");
	counted = new Counted[3];
	second_base = new Both;
	uint64_t *b = static_cast<uint64_t *>(malloc(8 + 40));
	b[0] = 40;
	payload = reinterpret_cast<char *>(b + 1);
	memset(payload, 'x', 40);
	agree_escape(counted);
	agree_escape(second_base);
}

int main()
{
	build();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
