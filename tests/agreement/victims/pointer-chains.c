/*
 * pointer-chains.c - the nine shapes a chain of one or two blocks can take
 * from a root: start pointers and interior pointers (16 bytes into a
 * 48-byte block: no valgrind heuristic applies at that offset), with and
 * without a root. Mirrors valgrind's leak-cases (leak-cases-full,
 * -possible, -summary, -exit-on-definite). Roots are globals; the blocks
 * are made in a callee whose frame is wiped before the program ends.
 *
 *   shape                          first block      second block
 *   1 root -> A                    reachable
 *   2 root -> A -> B               reachable        reachable
 *   3 A                            definitely
 *   4 A -> B                       definitely       indirectly
 *   5 root ~> A                    possibly
 *   6 root -> A ~> B               reachable        possibly
 *   7 root ~> A -> B               possibly         possibly
 *   8 root ~> A ~> B               possibly         possibly
 *   9 A ~> B                       definitely       indirectly
 *   (-> start pointer, ~> pointer 16 bytes inside)
 *
 * A correct checker: definitely lost 144 bytes in 3 blocks, indirectly
 * lost 96 in 2, possibly lost 288 in 6, still reachable 192 in 4 (at
 * least: the C library may keep blocks of its own); exit status 23.
 * LeakSanitizer takes an interior pointer for a pointer: it must report
 * the 3 direct and 2 indirect leaks only.
 *
 * EXPECT: definitely-lost 144 3; indirectly-lost 96 2; possibly-lost 288 6
 * EXPECT: still-reachable >=192 >=4; rc 23
 */
#include "agree.h"

#define NODE 48
#define INSIDE 16

char *root1, *root2, *root5, *root6, *root7, *root8;

static char *make(char *next)
{
	char *b = malloc(NODE);
	memset(b, 0, NODE);
	memcpy(b, &next, sizeof(next));
	agree_escape(b);
	return b;
}

static void point_inside(char *b)
{
	char *next;
	memcpy(&next, b, sizeof(next));
	next += INSIDE;
	memcpy(b, &next, sizeof(next));
}

__attribute__((noinline)) static void build(void)
{
	root1 = make(NULL);
	root2 = make(make(NULL));
	(void)make(NULL);
	(void)make(make(NULL));
	root5 = make(NULL) + INSIDE;
	root6 = make(make(NULL));
	point_inside(root6);
	root7 = make(make(NULL)) + INSIDE;
	root8 = make(make(NULL));
	point_inside(root8);
	root8 += INSIDE;
	char *nine = make(make(NULL));
	point_inside(nine);
}

int main(void)
{
	build();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
