/*
 * window-growth.c - two sites that grow one after the other, with markers
 * (include/leakscope.h) around each phase, for the window of `leakscope
 * report`'s growth ranking.
 *
 *   (first a block allocated and freed, and a pause: the recorder reads
 *   the symbols of main and libc then, not in the middle of a phase)
 *   "a0"          grow_a: 5 rounds of 10 x 1000 bytes, marker "a1".."a5"
 *                 after each round (one block every 2 ms)
 *   "a5" .. "b0"  every block of grow_a is freed
 *   "b0"          grow_b: 5 rounds of 10 x 2000 bytes, "b1".."b5"; left
 *                 live at the end
 *
 * Over the whole trace only grow_b grows (grow_a is back to nothing); in
 * [a0, a5] only grow_a does, by 10000 bytes per marker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "leakscope.h"

#define ROUNDS 5
#define PER_ROUND 10

static void mark(char phase, int i)
{
	char text[8];
	snprintf(text, sizeof(text), "%c%d", phase, i);
	leakscope_mark(text);
}

__attribute__((noinline)) static void *grow_a(void)
{
	return malloc(1000);
}

__attribute__((noinline)) static void *grow_b(void)
{
	return malloc(2000);
}

/* Marker "<name>0", then ROUNDS rounds of PER_ROUND blocks from fn, one
 * every 2 ms, each round followed by the marker "<name>1", "<name>2" ... */
static void phase(char name, void *(*fn)(void), void **v)
{
	mark(name, 0);
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < PER_ROUND; i++) {
			v[r * PER_ROUND + i] = fn();
			usleep(2000);
		}
		mark(name, r + 1);
	}
}

int main(void)
{
	void *as[ROUNDS * PER_ROUND], *bs[ROUNDS * PER_ROUND];
	free(malloc(1));
	usleep(200000);
	phase('a', grow_a, as);
	for (int i = 0; i < ROUNDS * PER_ROUND; i++)
		free(as[i]);
	phase('b', grow_b, bs);
	printf("grew %p\n", bs[0]);
	return 0;
}
