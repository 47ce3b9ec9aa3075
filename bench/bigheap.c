/* bigheap.c [shuffle] - 10^6 live blocks of 1000 bytes (1 GB) kept by a
 * global array, 1000 of them lost: the exit scan's worst case
 * (docs/performance.md). With "shuffle" the array is shuffled
 * (Fisher-Yates, fixed seed) before the 1000 entries are cleared, so that
 * the scan meets the blocks in no order. */
#include <stdlib.h>
#include <string.h>
void **volatile keep;
int main(int argc, char **argv) {
	enum { N = 1000000 };
	keep = malloc(N * sizeof(void *));
	for (int i = 0; i < N; i++) { keep[i] = malloc(1000); memset(keep[i], 0, 64); }
	if (argc > 1 && !strcmp(argv[1], "shuffle")) {
		srandom(1);
		for (int i = N - 1; i > 0; i--) {
			int j = (int)(random() % (i + 1));
			void *t = keep[i]; keep[i] = keep[j]; keep[j] = t;
		}
	}
	for (int i = 0; i < N; i += 1000) keep[i] = 0; /* 1000 lost blocks */
	return 0;
}
