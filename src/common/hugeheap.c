/*
 * hugeheap.c - the heap of an analysis command in transparent huge pages
 * (hugeheap.h).
 *
 * malloc grows its main heap with brk(2), which maps a new stretch of
 * address space each time, without the huge-page advice of the stretch
 * before. So malloc is told to grow the heap by a large pad at once
 * (M_TOP_PAD: address space, no memory until touched) and not to give it
 * back (M_TRIM_THRESHOLD); one growth is forced, and the whole stretch is
 * advised. Blocks up to the largest mmap threshold (32 MiB) then come from
 * there; a heap that outgrows the pad goes on in ordinary pages.
 *
 * Under a limit of address space or of data (ulimit -v, -d) or strict
 * overcommit, a growth by the pad would be refused where the block alone
 * fits, and malloc would fail: the heap is left as it is then.
 *
 * The last SMALL_ROOM bytes of the forced block, once freed, are the room
 * for a small run's blocks, in 4 KiB pages (a few of them touched, not a
 * whole 2 MiB page); the rest of it is kept and never touched, so that a
 * larger run's blocks go to huge pages early (a 4 KiB page costs a fault
 * each: a 10 MB eventlog's report took 166 page faults with all 256 KiB as
 * room, 120 with 64 KiB; docs/performance.md). The stretch
 * after it up to the first huge page (the heap does not begin at a huge
 * page's boundary: up to 2 MiB) is taken by a block that is kept and never
 * touched: the first large blocks of a run (a trace reader's buffer of a
 * MiB) would land there otherwise, in 4 KiB pages, a fault each (CPython's
 * report: 796 page faults, 158 without them, 11.96 -> 11.03 ms).
 */
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/hugeheap.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)
#define PAD_MAX ((size_t)1 << 30)
#define MMAP_THRESHOLD_MAX (32 << 20)  /* glibc's ceiling on 64-bit */
#define FORCE_GROWTH (256 << 10)       /* more than a fresh heap's top holds */
#define SMALL_ROOM (64 << 10)         /* of it, for a small run's blocks */

/* A quarter of the machine's memory, at most PAD_MAX: a brk(2) larger than
 * memory can be refused under the default overcommit policy. */
static size_t pad_size(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || page <= 0)
		return 0;
	size_t quarter = (size_t)pages / 4 * (size_t)page;
	return quarter < PAD_MAX ? quarter & ~(HUGE_PAGE - 1) : PAD_MAX;
}

static int unlimited(int resource)
{
	struct rlimit r;
	return getrlimit(resource, &r) == 0 && r.rlim_cur == RLIM_INFINITY;
}

/* No limit or accounting that a growth by the pad could run into. */
int lk_hugeheap_allowed(void)
{
	/* read(2), not stdio: no FILE, no buffer, before malloc is set up */
	char mode = '2';   /* unknown: as if strict */
	int fd = open("/proc/sys/vm/overcommit_memory", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &mode, 1) != 1)
			mode = '2';
		close(fd);
	}
	return mode != '2' && unlimited(RLIMIT_AS) && unlimited(RLIMIT_DATA);
}

/* The stretch before the first huge page and the forced block's front,
 * kept (volatile: a block never read is dropped by the compiler, its
 * malloc too). */
static void *volatile gap, *volatile filler;

void lk_hugeheap_enable(void)
{
	size_t pad = pad_size();
	if (pad < 4 * HUGE_PAGE || !lk_hugeheap_allowed())
		return;
	if (!mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX) || !mallopt(M_TRIM_THRESHOLD, INT_MAX) ||
	    !mallopt(M_TOP_PAD, (int)pad))
		return;
	void *block = malloc(FORCE_GROWTH);
	if (!block)
		return;
	uintptr_t past = (uintptr_t)block + FORCE_GROWTH;
	uintptr_t from = (past + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t end = (uintptr_t)sbrk(0) & ~(HUGE_PAGE - 1);
	if (end > from && end - from <= 2 * pad) {  /* the block is in the brk heap */
		madvise((void *)from, end - from, MADV_HUGEPAGE);
		/* to a little past `from` (malloc's headers), not short of it */
		gap = malloc(from - past + 64);
	}
	free(block);
	if (gap)  /* malloc splits the freed block: the front to filler */
		filler = malloc(FORCE_GROWTH - SMALL_ROOM);
}

void *lk_sparse_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void lk_sparse_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}
