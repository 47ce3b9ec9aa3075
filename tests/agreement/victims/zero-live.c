/*
 * zero-live.c - a block of size 0 that a global still points to at the
 * end is not lost: it is still reachable, 0 bytes in 1 block. Mirrors
 * valgrind's leak-0 (a live 0-byte block used to be called lost).
 *
 * A correct checker: nothing lost; still reachable at least 0 bytes in 1
 * block; exit status 0.
 *
 * EXPECT: still-reachable >=0 >=1; rc 0
 */
#include "agree.h"

void *empty;

int main(void)
{
	empty = malloc(0);
	agree_escape(empty);
	return 0;
}
