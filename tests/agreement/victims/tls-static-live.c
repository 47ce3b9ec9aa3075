/*
 * tls-static-live.c - the main thread's __thread variable (static TLS)
 * holds a block at the end: still reachable. Mirrors LSan's
 * Linux/use_tls_static.
 *
 * A correct checker: nothing lost; the 1,339-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=1339 >=1; rc 0
 */
#include "agree.h"

__thread void *thread_kept;

__attribute__((noinline)) static void keep(void)
{
	thread_kept = malloc(1339);
}

int main(void)
{
	keep();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
