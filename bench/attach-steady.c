/*
 * attach-steady.c - a long-running program to attach to: for SECONDS
 * seconds, rounds of 10,000 malloc/free pairs made 1 to 24 frames deep;
 * each round leaks one 64-byte block from leak_one(). Every second it
 * prints "second N: PAIRS pairs/s", so that the rate before, while and
 * after a tool is attached can be compared.
 *
 *   attach-steady SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *volatile sink;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void pair_at(int depth, size_t size)
{
	if (depth > 0) {
		pair_at(depth - 1, size);
		__asm__ volatile("" ::: "memory");
		return;
	}
	void *p = malloc(size);
	memset(p, 1, size < 64 ? size : 64);
	sink = p;           /* escapes: the pair is not optimized away */
	free(sink);
}

__attribute__((noinline)) static void leak_one(void)
{
	sink = malloc(64);
	memset(sink, 2, 64);
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	double start = now(), mark = start;
	long pairs = 0;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (int second = 1; second <= seconds;) {
		for (int i = 0; i < 10000; i++)
			pair_at(i % 24, (size_t)(16 + i % 512));
		pairs += 10000;
		leak_one();
		double t = now();
		if (t - mark >= 1.0) {
			printf("second %d: %.0f pairs/s\n", second++, (double)pairs / (t - mark));
			fflush(stdout);
			pairs = 0;
			mark = t;
		}
	}
	return 0;
}
