/*
 * clean-million: 1,000,000 allocations through malloc, calloc and realloc,
 * up to 4,096 blocks alive at a time, every one freed before main returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 4096
#define TOTAL 1000000

int main(void)
{
	static void *slot[SLOTS];
	unsigned x = 12345;
	long bytes = 0;

	for (int i = 0; i < TOTAL; i++) {
		x = x * 1103515245u + 12345u;
		int s = (x >> 8) % SLOTS;
		size_t n = 1 + (x >> 4) % 700;
		free(slot[s]);
		switch (i % 8) {
		case 0: slot[s] = calloc(1, n); break;
		case 1: slot[s] = realloc(NULL, n); break;
		default: slot[s] = malloc(n); break;
		}
		memset(slot[s], 0, n < 16 ? n : 16);
		if (i % 16 == 3)
			slot[s] = realloc(slot[s], n * 2);
		bytes += n;
	}
	for (int s = 0; s < SLOTS; s++)
		free(slot[s]);
	printf("allocated %ld bytes in %d blocks, all freed\n", bytes, TOTAL);
	return 0;
}
