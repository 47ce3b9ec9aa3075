/* bigheap.c - 10^6 live blocks of 1000 bytes (1 GB) kept by a global
 * array, 1000 of them lost: the exit scan's worst case (docs/performance.md). */
#include <stdlib.h>
#include <string.h>
void **volatile keep;
int main(void) {
	enum { N = 1000000 };
	keep = malloc(N * sizeof(void *));
	for (int i = 0; i < N; i++) { keep[i] = malloc(1000); memset(keep[i], 0, 64); }
	for (int i = 0; i < N; i += 1000) keep[i] = 0; /* 1000 lost blocks */
	return 0;
}
