/*
 * exit-live-local.c - main keeps a block in a local variable and calls
 * exit() without returning: main's frame is live when the process ends,
 * so the block is still reachable. Mirrors LSan's use_stacks, use_after_return
 * and Linux/log-path_test (whose default runs report no leak).
 *
 * A correct checker: nothing lost; the 1,337-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=1337 >=1; rc 0
 */
#include "agree.h"

int main(void)
{
	void *volatile kept = malloc(1337);
	printf("kept at %p\n", (void *)&kept);
	exit(0);
}
