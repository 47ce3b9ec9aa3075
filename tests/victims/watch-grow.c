/*
 * watch-grow.c - a program that grows for a few seconds, for `leakscope
 * watch`: every 50 ms grow_cache keeps 1000 bytes (never freed) and
 * scratch allocates 4000 bytes it frees at once; a mark "second N" after
 * each second. SECONDS (argv[1], default 3) seconds, then it exits.
 * It prints "ready PID" first (for attach: its start-up is over),
 * without allocating.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "leakscope.h"

static void *volatile kept[1000];

__attribute__((noinline)) static void *grow_cache(void)
{
	void *p = malloc(1000);
	if (p)
		memset(p, 1, 1000);
	return p;
}

__attribute__((noinline)) static void scratch(void)
{
	char *volatile p = malloc(4000);
	if (p)
		p[0] = 1;
	free(p);
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 3, n = 0;
	char line[32];   /* not stdio's buffer: it would stay live */
	int len = snprintf(line, sizeof(line), "ready %d\n", (int)getpid());
	if (write(1, line, (size_t)len) != len)
		return 1;
	for (int s = 1; s <= seconds; s++) {
		for (int i = 0; i < 20 && n < 1000; i++, n++) {
			kept[n] = grow_cache();
			scratch();
			usleep(50000);
		}
		char text[32];
		snprintf(text, sizeof(text), "second %d", s);
		leakscope_mark(text);
	}
	return 0;
}
