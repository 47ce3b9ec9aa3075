/*
 * hugeheap_test.c - the analysis commands' heap in huge pages
 * (src/common/hugeheap.c): after lk_hugeheap_enable(), the first block of
 * a MiB (a trace reader's buffer) and a block of 16 MiB come from the heap
 * and their mappings carry the huge-page advice ("hg" in /proc/self/smaps),
 * while a small block comes from the 4 KiB pages before them, and small
 * blocks past their first 64 KiB come from huge pages too; lk_sparse_alloc() gives zeroed memory whose pages
 * are only made where touched, where calloc from the padded heap makes
 * them all. glibc's malloc only: skipped under AddressSanitizer, whose
 * allocator replaces it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hugeheap.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#ifdef UNDER_ASAN
int main(void)
{
	puts("1..0 # SKIP glibc's malloc is replaced by AddressSanitizer's");
	return 77;
}
#else
#include "tap.h"

#define MIB ((size_t)1 << 20)

/* The VmFlags of the mapping of /proc/self/smaps holding address a,
 * into flags; 0 if found. */
static int vm_flags_of(uintptr_t a, char *flags, size_t size)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = -1;
	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = a >= lo && a < hi;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			size_t n = strcspn(line + 8, "\n");
			n = n < size ? n : size - 1;
			memcpy(flags, line + 8, n);
			flags[n] = 0;
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* lk_hugeheap_enable() leaves the heap alone: limits, strict overcommit,
 * or no huge pages in the kernel. */
static int heap_left_alone(void)
{
	return !lk_hugeheap_allowed() ||
	       access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0;
}

/* Resident bytes of the process (the huge pages count whole). */
static long resident(void)
{
	long size = 0, pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &size, &pages) != 2)
			pages = 0;
		fclose(f);
	}
	return pages * sysconf(_SC_PAGESIZE);
}

int main(void)
{
	lk_hugeheap_enable();
	char flags[256] = "";
	uint8_t *first = malloc(MIB), *small = malloc(64);
	if (heap_left_alone())
		ok(first && small, "a block of a MiB (the heap as it is)");
	else
		ok(first && vm_flags_of((uintptr_t)first, flags, sizeof(flags)) == 0 &&
		   strstr(flags, " hg") && small < first,
		   "the first block of a MiB is in memory advised for huge pages (VmFlags:%s), "
		   "a small one before it", flags);
	free(first);
	free(small);
	enum { N_SMALL = 24 };  /* 8 KiB each: 192 KiB */
	uint8_t *blocks[N_SMALL];
	for (int i = 0; i < N_SMALL; i++)
		blocks[i] = malloc(8192);
	if (heap_left_alone())
		ok(blocks[N_SMALL - 1] != NULL, "192 KiB in blocks of 8 KiB (the heap as it is)");
	else
		ok(blocks[N_SMALL - 1] &&
		   vm_flags_of((uintptr_t)blocks[N_SMALL - 1], flags, sizeof(flags)) == 0 &&
		   strstr(flags, " hg"), "the last of 192 KiB of blocks of 8 KiB is in memory "
		   "advised for huge pages (VmFlags:%s)", flags);
	for (int i = 0; i < N_SMALL; i++)
		free(blocks[i]);
	uint8_t *big = malloc(16 * MIB);
	if (heap_left_alone())
		ok(big, "a 16 MiB block (limits, strict overcommit or no huge pages: heap as it is)");
	else
		ok(big && vm_flags_of((uintptr_t)big + 8 * MIB, flags, sizeof(flags)) == 0 &&
		   strstr(flags, " hg"), "a 16 MiB block is in memory advised for huge pages "
		   "(VmFlags:%s)", flags);
	free(big);

	size_t size = 4 * MIB;
	long before = resident();
	uint8_t *sparse = lk_sparse_alloc(size);
	if (sparse) {
		sparse[0] = 1;
		sparse[size - 1] = 1;
	}
	long sparse_kib = (resident() - before) / 1024;
	ok(sparse && sparse[size / 2] == 0 && sparse_kib < 64,
	   "4 MiB from lk_sparse_alloc, two bytes written: %ld KiB more resident", sparse_kib);
	lk_sparse_free(sparse, size);

	before = resident();
	uint8_t *cleared = calloc(1, size);
	long calloc_kib = (resident() - before) / 1024;
	if (heap_left_alone())
		ok(cleared, "calloc of 4 MiB (the heap as it is): %ld KiB more resident", calloc_kib);
	else
		ok(cleared && calloc_kib >= (long)(size / 2 / 1024),
		   "calloc of 4 MiB from the padded heap clears it: %ld KiB more resident", calloc_kib);
	free(cleared);
	return tap_done();
}
#endif
