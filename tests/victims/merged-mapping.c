/*
 * merged-mapping: as CPython's pymalloc does, the program maps anonymous
 * memory of its own (64 KiB) and keeps there the only pointer to a
 * 48-byte malloc'ed block. Its mapping sits right below a 256 KiB block
 * that glibc mmapped by itself, so the kernel shows both as one line of
 * /proc/PID/maps. The program's part is a root: the 48 bytes are still
 * reachable (the 256 KiB block is held by a global); nothing is lost.
 * Prints "merged 1" when the kernel did merge the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

char *volatile big;

int main(void)
{
	big = malloc(256 * 1024);
	char *mine = mmap(big - 16 - 65536, 65536, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (mine == MAP_FAILED)
		return 1;
	*(void *volatile *)(mine + 1000) = malloc(48);
	memset(big, 0, 256 * 1024);
	char line[512];
	int merged = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo = 0, hi = 0;
		sscanf(line, "%lx-%lx", &lo, &hi);
		merged |= lo <= (unsigned long)mine && hi > (unsigned long)big;
	}
	if (f)
		fclose(f);
	printf("merged %d\n", merged);
	return 0;
}
