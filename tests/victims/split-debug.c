/* split-debug: one 777-byte leak made by an inlined helper inside a static
 * function, for tests of separate debug files (build-id, debuglink) and of
 * stripped binaries. Built with -O2, so make_buffer is inlined into fill. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline __attribute__((always_inline)) char *make_buffer(size_t n)
{
	char *p = malloc(n); /* LINE:split-malloc */
	if (p)
		memset(p, 'x', n);
	return p;
}

__attribute__((noinline)) static char *fill(size_t n)
{
	char *p = make_buffer(n); /* LINE:split-call */
	__asm__ volatile("" ::: "memory");
	return p;
}

int main(void)
{
	char *p = fill(777);
	printf("filled %c\n", p[0]);
	return 0;
}
