/*
 * filemap.c - mapped windows over a file, with SIGBUS caught (filemap.h).
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

struct lk_filemap {
	int fd;
	uint64_t size;     /* file size when last looked up */
	uint8_t *map;
	size_t map_len;
	struct sigaction old_bus;
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
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return -ENODEV;
	if (guard_taken)
		return -EBUSY;
	struct lk_filemap *m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	struct sigaction sa = {.sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &guard_old)) {
		int rc = -errno;
		free(m);
		return rc;
	}
	guard_taken = 1;
	guard_hit = 0;
	guard_page_mask = ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
	m->fd = fd;
	m->size = (uint64_t)st.st_size;
	*out = m;
	return 0;
}

static void unmap(struct lk_filemap *m)
{
	guard_start = NULL;
	if (m->map)
		munmap(m->map, m->map_len);
	m->map = NULL;
	m->map_len = 0;
}

int lk_filemap_move(struct lk_filemap *m, uint64_t at, const uint8_t **buf,
		    uint64_t *base, size_t *len, int *eof)
{
	uint64_t off = at & guard_page_mask;
	struct stat st;
	if (off + LK_FILEMAP_WINDOW > m->size && fstat(m->fd, &st) == 0)
		m->size = (uint64_t)st.st_size;
	unmap(m);
	size_t n = 0;
	if (off < m->size)
		n = m->size - off < LK_FILEMAP_WINDOW ? (size_t)(m->size - off) : LK_FILEMAP_WINDOW;
	if (n > 0) {
		void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, m->fd, (off_t)off);
		if (p == MAP_FAILED)
			return -errno;
		m->map = p;
		m->map_len = n;
		guard_len = n;
		guard_start = p;
	}
	*buf = m->map;
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
	unmap(m);
	sigaction(SIGBUS, &guard_old, NULL);
	guard_taken = 0;
	free(m);
}
