/*
 * sharedcaller.c - one allocating function reached through three stacks,
 * two of which share its caller: make <- helper <- via_a, make <- helper
 * <- via_b and make <- direct. The HTML report must name the three sites
 * apart (the first caller that differs is not the same for all of them).
 *
 *   20 rounds; in each, via_a keeps 64 bytes, via_b 128, direct 256:
 *   1,280, 2,560 and 5,120 bytes not freed at exit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 20

static char *kept[3 * ROUNDS];
static int n_kept;

static __attribute__((noinline)) char *make(size_t n)
{
	char *s = malloc(n);
	if (s)
		memset(s, 'x', n);
	return s;
}

static __attribute__((noinline)) char *helper(size_t n)
{
	return make(n);
}

static __attribute__((noinline)) void via_a(void)
{
	kept[n_kept++] = helper(64);
}

static __attribute__((noinline)) void via_b(void)
{
	kept[n_kept++] = helper(128);
}

static __attribute__((noinline)) void direct(void)
{
	kept[n_kept++] = make(256);
}

int main(void)
{
	for (int i = 0; i < ROUNDS; i++) {
		via_a();
		via_b();
		direct();
		usleep(2000);
	}
	return kept[0] == NULL;
}
