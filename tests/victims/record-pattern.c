/* record-pattern: a known allocation pattern for `leakscope record` tests.
 * leaky_site() allocates 100 blocks of 1000 bytes over about 300 ms; every
 * second one is freed, the other 50 are leaked. Prints "done" at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *keep[100];

__attribute__((noinline)) static void *leaky_site(void)
{
	return malloc(1000); /* LINE:leaky-malloc */
}

int main(void)
{
	for (int i = 0; i < 100; i++) {
		keep[i] = leaky_site();
		if (i % 10 == 9)
			usleep(30000);
	}
	for (int i = 0; i < 100; i += 2)
		free(keep[i]);
	puts("done");
	return 0;
}
