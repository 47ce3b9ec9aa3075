/*
 * many-small-lost.c - a loop loses a thousand 1-byte blocks; the last
 * one's pointer was in a local of a function that has returned. Mirrors
 * valgrind's trivialleak.
 *
 * A correct checker: definitely lost 1,000 bytes in 1,000 blocks; exit
 * status 23.
 *
 * EXPECT: definitely-lost 1000 1000; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static void drip(void)
{
	void *last = NULL;
	for (int i = 0; i < 1000; i++) {
		last = malloc(1);
		agree_escape(last);
	}
	(void)last;
}

int main(void)
{
	drip();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
