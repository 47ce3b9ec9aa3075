/*
 * filemap.c - mapped windows over a file, with SIGBUS caught (filemap.h).
 *
 * A window covers the file from a 2 MiB boundary and sits at an address
 * that is a multiple of 2 MiB, inside one area reserved at the start and
 * mapped over in place (MAP_FIXED: no unmapping between windows). So a
 * page cache that holds the file in 2 MiB folios (GHC writes its eventlog
 * in chunks of 2 MiB; a file first read here is read ahead in huge pages,
 * MADV_HUGEPAGE) is mapped one page-table entry per 2 MiB, and otherwise
 * page by page as usual. The window is two such spans long: the reader
 * moves it when it nears its end, by one span.
 *
 * The handler only acts on faults inside the window of this process:
 * others (a real bus error elsewhere) get the action that was in place
 * before, by restoring it and letting the access fault again.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/filemap.h"

#define SPAN (2u * 1024u * 1024u)  /* huge page size, and window alignment */

struct lk_filemap {
	int fd;
	uint64_t size;     /* file size when last looked up */
	uint8_t *area;     /* reserved: SPAN for alignment + the window */
	uint8_t *window;   /* in area, SPAN-aligned */
	size_t mapped;     /* bytes of the file mapped at window */
};

/* The one window the handler guards (set while mapped). */
static uint8_t *volatile guard_start;
static volatile size_t guard_len;
static volatile sig_atomic_t guard_hit;
static volatile sig_atomic_t guard_taken;
static uintptr_t guard_page_mask;
static struct sigaction guard_old;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	(void)sig;
	(void)uctx;
	uint8_t *at = si->si_addr, *start = guard_start;
	if (start && at >= start && at < start + guard_len) {
		uintptr_t page = (uintptr_t)at & guard_page_mask;
		if (mmap((void *)page, 1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) != MAP_FAILED) {
			guard_hit = 1;
			return;
		}
	}
	sigaction(SIGBUS, &guard_old, NULL);
}

int lk_filemap_open(int fd, struct lk_filemap **out)
{
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0)
		return -ENODEV;  /* (procfs files say 0 bytes: read them) */
	if (guard_taken)
		return -EBUSY;
	struct lk_filemap *m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	void *area = mmap(NULL, SPAN + LK_FILEMAP_WINDOW, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	struct sigaction sa = {.sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	if (area == MAP_FAILED || sigaction(SIGBUS, &sa, &guard_old)) {
		int rc = -errno;
		if (area != MAP_FAILED)
			munmap(area, SPAN + LK_FILEMAP_WINDOW);
		free(m);
		return rc;
	}
	guard_taken = 1;
	guard_hit = 0;
	guard_page_mask = ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
	m->fd = fd;
	m->size = (uint64_t)st.st_size;
	m->area = area;
	m->window = (uint8_t *)(((uintptr_t)area + SPAN - 1) & ~(uintptr_t)(SPAN - 1));
	*out = m;
	return 0;
}

int lk_filemap_move(struct lk_filemap *m, uint64_t at, const uint8_t **buf,
		    uint64_t *base, size_t *len, int *eof)
{
	uint64_t off = at & ~(uint64_t)(SPAN - 1);
	struct stat st;
	if (off + LK_FILEMAP_WINDOW > m->size && fstat(m->fd, &st) == 0)
		m->size = (uint64_t)st.st_size;
	size_t n = 0;
	if (off < m->size)
		n = m->size - off < LK_FILEMAP_WINDOW ? (size_t)(m->size - off) : LK_FILEMAP_WINDOW;
	guard_start = NULL;
	/* the file's bytes over the old window; past them, nothing readable */
	if (n > 0 && mmap(m->window, n, PROT_READ, MAP_PRIVATE | MAP_FIXED, m->fd,
			  (off_t)off) == MAP_FAILED)
		return -errno;
	size_t pages = (n + ~guard_page_mask) & guard_page_mask;
	if (pages < m->mapped &&
	    mmap(m->window + pages, m->mapped - pages, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED)
		return -errno;
	m->mapped = pages;
	if (n > 0) {
		madvise(m->window, n, MADV_HUGEPAGE);  /* huge folios when read ahead */
		guard_len = n;
		guard_start = m->window;
	}
	*buf = m->window;
	*base = off;
	*len = n;
	*eof = off + n >= m->size;
	return 0;
}

int lk_filemap_shrunk(const struct lk_filemap *m, uint64_t *size)
{
	struct stat st;
	if (fstat(m->fd, &st))
		return guard_hit ? (*size = m->size, 1) : 0;
	*size = (uint64_t)st.st_size;
	return guard_hit || *size < m->size;
}

void lk_filemap_close(struct lk_filemap *m)
{
	if (!m)
		return;
	guard_start = NULL;
	munmap(m->area, SPAN + LK_FILEMAP_WINDOW);
	sigaction(SIGBUS, &guard_old, NULL);
	guard_taken = 0;
	free(m);
}
