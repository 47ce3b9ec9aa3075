/*
 * hugeheap_test.c - the analysis commands' heap in huge pages
 * (src/common/hugeheap.c). What the code decides is checked, never what
 * the kernel grants: whether a touch of advised memory gets a 2 MiB page
 * depends on the machine's transparent huge page settings ("always",
 * "madvise", "never"), on its free memory and on chance.
 *
 * After lk_hugeheap_enable(), a calloc of 4 MiB from the padded heap
 * clears what it hands out (so makes its pages: what lk_sparse_alloc() is
 * for); the first block of a MiB (a trace reader's buffer), the last of
 * 192 KiB of 8 KiB blocks and a block of 16 MiB come from the heap and
 * their mappings carry the huge-page advice ("hg" in /proc/self/smaps,
 * which madvise sets whatever the kernel's mode), while a small block
 * comes from the 4 KiB pages before them; every block holds what is
 * written to it. Under a limit of address space (ulimit -v) the heap is
 * left as it is: nothing is advised. lk_sparse_alloc() gives zeroed memory
 * whose pages are made only where touched, counted by mincore(2) over
 * that memory alone (a count of the whole process would take in the
 * program's own pages that the kernel maps ahead of a fault), and away
 * from where the huge page of a touch could reach. glibc's malloc only:
 * skipped under AddressSanitizer, whose allocator replaces it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

/* Whether the mapping holding address a carries the huge-page advice. */
static int advised(const void *a, char *flags, size_t size)
{
	return vm_flags_of((uintptr_t)a, flags, size) == 0 && strstr(flags, " hg") != NULL;
}

/* lk_hugeheap_enable() leaves the heap alone: limits, strict overcommit,
 * or no huge pages in the kernel. */
static int heap_left_alone(void)
{
	return !lk_hugeheap_allowed() ||
	       access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0;
}

/* Of the pages wholly inside [p, p + len), how many are in memory
 * (mincore: made by a touch, small or part of a huge page); -1 if it
 * cannot tell. At most 16 MiB. */
static long resident_pages(const void *p, size_t len, long *pages)
{
	static unsigned char vec[4096];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t to = ((uintptr_t)p + len) & ~(uintptr_t)(page - 1);
	size_t n = to > from ? (to - from) / page : 0;
	*pages = (long)n;
	if (n == 0 || n > sizeof(vec) || mincore((void *)from, to - from, vec) != 0)
		return -1;
	long in = 0;
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	return in;
}

/* Write a pattern over n bytes and read it back: the block is memory of
 * its own, whatever pages the kernel gave it. */
static int holds(uint8_t *p, size_t n, unsigned seed)
{
	if (!p)
		return 0;
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131u + seed);
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(i * 131u + seed))
			return 0;
	return 1;
}

/* Run under a limit of address space: the heap must be left as it is.
 * Exits 0 when a 16 MiB block works and is not advised. */
static int limited_child(void)
{
	char flags[256] = "";
	lk_hugeheap_enable();
	uint8_t *big = malloc(16 * MIB);
	if (!holds(big, 16 * MIB, 7))
		return 2;
	if (vm_flags_of((uintptr_t)big + 8 * MIB, flags, sizeof(flags)) != 0)
		return 3;
	return strstr(flags, " hg") ? 1 : 0;
}

static void check_limited(const char *self)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit r = {(rlim_t)4 << 30, (rlim_t)4 << 30};
		if (setrlimit(RLIMIT_AS, &r) == 0)
			execl("/proc/self/exe", self, "limited", (char *)NULL);
		_exit(4);
	}
	int status = -1;
	if (pid > 0)
		waitpid(pid, &status, 0);
	ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "under ulimit -v the heap is left as it is: a 16 MiB block holds its bytes and is "
	   "not advised for huge pages (child status %d)", status);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "limited"))
		return limited_child();
	lk_hugeheap_enable();
	int alone = heap_left_alone();
	char flags[256] = "";
	long pages, in;

	/* first, while the heap's top is fresh: nothing there was touched */
	size_t size = 4 * MIB;
	uint8_t *cleared = calloc(1, size);
	in = resident_pages(cleared, size, &pages);
	if (alone)
		ok(cleared && !cleared[size / 2], "calloc of 4 MiB (the heap as it is)");
	else
		ok(cleared && in >= pages / 2 && !cleared[size / 2],
		   "calloc of 4 MiB from the padded heap clears it: %ld of %ld pages made", in, pages);
	free(cleared);

	uint8_t *first = malloc(MIB), *small = malloc(64);
	if (alone)
		ok(holds(first, MIB, 1) && holds(small, 64, 2), "a block of a MiB (the heap as it is)");
	else
		ok(advised(first, flags, sizeof(flags)) && small < first &&
		   holds(first, MIB, 1) && holds(small, 64, 2),
		   "the first block of a MiB is in memory advised for huge pages (VmFlags:%s), "
		   "a small one before it", flags);
	free(first);
	free(small);

	enum { N_SMALL = 24 };  /* 8 KiB each: 192 KiB */
	uint8_t *blocks[N_SMALL];
	int all_hold = 1;
	for (int i = 0; i < N_SMALL; i++)
		blocks[i] = malloc(8192);
	for (int i = 0; i < N_SMALL; i++)  /* all written, then all read: no overlap */
		all_hold &= holds(blocks[i], 8192, (unsigned)i);
	for (int i = 0; i < N_SMALL && all_hold; i++)
		for (size_t j = 0; j < 8192; j++)
			all_hold &= blocks[i][j] == (uint8_t)(j * 131u + (unsigned)i);
	if (alone)
		ok(all_hold, "192 KiB in blocks of 8 KiB (the heap as it is)");
	else
		ok(all_hold && advised(blocks[N_SMALL - 1], flags, sizeof(flags)),
		   "the last of 192 KiB of blocks of 8 KiB is in memory advised for huge pages "
		   "(VmFlags:%s)", flags);
	for (int i = 0; i < N_SMALL; i++)
		free(blocks[i]);

	uint8_t *big = malloc(16 * MIB);
	if (alone)
		ok(holds(big, 16 * MIB, 3),
		   "a 16 MiB block (limits, strict overcommit or no huge pages: heap as it is)");
	else
		ok(advised(big + 8 * MIB, flags, sizeof(flags)) && holds(big, 16 * MIB, 3),
		   "a 16 MiB block is in memory advised for huge pages (VmFlags:%s)", flags);
	free(big);

	check_limited(argv[0]);

	/* Two bytes written at the ends of 8 MiB: a touch makes a 4 KiB page,
	 * or a 2 MiB one where the kernel grants it, never more, so the middle
	 * 4 MiB (2 MiB or more from either byte) stay unmade. */
	size = 8 * MIB;
	uint8_t *sparse = lk_sparse_alloc(size);
	long middle = -1, total = -1;
	if (sparse) {
		sparse[0] = 1;
		sparse[size - 1] = 1;
		middle = resident_pages(sparse + 2 * MIB, 4 * MIB, &pages);
		total = resident_pages(sparse, size, &pages);
	}
	ok(sparse && middle == 0 && total >= 2 && sparse[size / 2] == 0 && sparse[1] == 0,
	   "8 MiB from lk_sparse_alloc, a byte written at each end: %ld of %ld pages made, "
	   "%ld in the middle 4 MiB, zeroed", total, pages, middle);
	lk_sparse_free(sparse, size);
	return tap_done();
}
#endif
