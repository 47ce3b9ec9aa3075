/* cgo-leak: hello() allocates 1,000 bytes, prints the pointer and leaks it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hello.h"

/* Zero the stack below hello's frame, where printf's dead frames still
 * hold the pointer, as the further work of a real program would: a
 * conservative scan that finds such a stale copy on the stack of the
 * thread that made the call (about one run in thirty) rightly calls the
 * block still reachable. */
static __attribute__((noinline)) void scrub_stack(void)
{
	char pad[16384];
	explicit_bzero(pad, sizeof(pad));
}

void hello(void)
{
	char *p = malloc(1000); /* LINE:cgo-malloc */
	printf("leaking %p\n", (void *)p);
	fflush(stdout);
	scrub_stack();
}
