/*
 * glibcheap.c - read glibc's heap from a stopped process (glibcheap.h).
 *
 * Offsets are those of glibc 2.36 on x86-64: malloc_state (2,200 bytes:
 * fastbinsY at 16, top at 96, bins at 112, next at 2,160), heap_info
 * (its size is found: the first heap of an arena holds its malloc_state
 * right after it), tcache_perthread_struct (a 0x290-byte chunk: 64 16-bit
 * counts, then 64 entries).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/glibcheap.h"
#include "collector/maps.h"
#include "common/error.h"

#define ARENA_FASTBINS 16
#define NFASTBINS 10
#define ARENA_TOP 96
#define ARENA_BINS 112
#define ARENA_NEXT 2160
#define ARENA_SIZE 2200
#define HEAP_MAX (64ULL << 20)        /* a non-main arena's heap: its size and alignment */
#define TCACHE_CHUNK 0x290
#define TCACHE_BINS 64
#define CHUNK_MMAPPED 2
#define CHUNKS_MAX (1ULL << 30)       /* walks are capped */
#define ARENAS_MAX 4096
#define HEAPS_MAX 65536
#define TLS_WINDOW (64 * 1024)       /* libc's static TLS lies this close below fs_base */
#define WIN (256 * 1024)

struct map {
	uint64_t lo, hi;
	int writable, anon, heap, libc;
};

struct chunk {
	uint64_t at, size;  /* the chunk, its size field without the flag bits */
	int mmapped, excluded;
};

struct walk {
	int fd;
	pid_t pid;
	struct map *maps;
	size_t n_maps;
	struct chunk *c;
	size_t n, cap;
	uint64_t arena[ARENAS_MAX];
	size_t n_arenas;
	struct { uint64_t lo, hi; } *heaps; /* glibc's heaps: not mmapped chunks */
	size_t n_heaps;
	uint64_t base;    /* the read window */
	size_t filled;
	unsigned char *win;
	struct lk_glibc_heap *out;
};

/* Read len bytes at addr of the target, through a window for small reads
 * that follow each other. */
static int rd(struct walk *w, uint64_t addr, void *buf, size_t len)
{
	if (len > UINT64_MAX - addr)
		return -EFAULT;
	if (addr >= w->base && addr + len <= w->base + w->filled) {
		memcpy(buf, w->win + (addr - w->base), len);
		return 0;
	}
	if (len <= WIN / 2) {
		w->base = addr & ~(uint64_t)4095;
		ssize_t n = pread(w->fd, w->win, WIN, (off_t)w->base);
		w->filled = n > 0 ? (size_t)n : 0;
		if (addr + len <= w->base + w->filled) {
			memcpy(buf, w->win + (addr - w->base), len);
			return 0;
		}
	}
	return pread(w->fd, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -EFAULT;
}

static int rd64(struct walk *w, uint64_t addr, uint64_t *v)
{
	return rd(w, addr, v, 8);
}

static int bad(const char *what, uint64_t at)
{
	return lk_error_set(LK_EFORMAT, "glibc's heap is not consistent: %s at 0x%" PRIx64
			    " (a thread stopped inside malloc, or not glibc's heap)", what, at);
}

/* --- the process's mappings ------------------------------------------ */

/* Add m, or extend the [heap] line before it: the kernel cannot grow the
 * brk area of a process forked after the heap was made into the parent's
 * mapping, so the area of a forked daemon shows as several lines. */
static int add_map(struct walk *w, const struct map *m, size_t *cap)
{
	struct map *last = w->n_maps ? &w->maps[w->n_maps - 1] : NULL;
	if (m->heap && last && last->heap && last->hi == m->lo && last->writable == m->writable) {
		last->hi = m->hi;
		return 0;
	}
	if (w->n_maps == *cap) {
		size_t nc = *cap ? 2 * *cap : 256;
		struct map *a = realloc(w->maps, nc * sizeof(*a));
		if (!a)
			return -ENOMEM;
		w->maps = a;
		*cap = nc;
	}
	w->maps[w->n_maps++] = *m;
	return 0;
}

static int read_maps(struct walk *w)
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)w->pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return lk_error_set(-errno, "cannot read the mappings of pid %d: %s", (int)w->pid,
				    strerror(errno));
	size_t cap = 0;
	int rc = 0;
	struct lk_maps_line l;
	while (!rc && lk_maps_next(f, line, sizeof(line), &l)) {
		size_t len = strcspn(l.name, "\n");
		struct map m = {.lo = l.lo, .hi = l.hi, .writable = !strcmp(l.perms, "rw-p"),
				.anon = len == 0, .heap = !strncmp(l.name, "[heap]", 6),
				.libc = len >= 10 && !strncmp(l.name + len - 10, "/libc.so.6", 10)};
		rc = add_map(w, &m, &cap);
	}
	fclose(f);
	return rc;
}

/* --- chunks ------------------------------------------------------------ */

static int add_chunk(struct walk *w, uint64_t at, uint64_t size, int mmapped)
{
	if (w->n == w->cap) {
		size_t nc = w->cap ? 2 * w->cap : 4096;
		struct chunk *a = realloc(w->c, nc * sizeof(*a));
		if (!a)
			return -ENOMEM;
		w->c = a;
		w->cap = nc;
	}
	w->c[w->n++] = (struct chunk){.at = at, .size = size, .mmapped = mmapped};
	return 0;
}

static int add_heap(struct walk *w, uint64_t lo, uint64_t hi)
{
	if (w->n_heaps >= HEAPS_MAX)
		return lk_error_set(LK_ELIMIT, "glibc's heap has more than %d heaps", HEAPS_MAX);
	if (!w->heaps && !(w->heaps = malloc(HEAPS_MAX * sizeof(*w->heaps))))
		return -ENOMEM;
	w->heaps[w->n_heaps].lo = lo;
	w->heaps[w->n_heaps++].hi = hi;
	w->out->heaps++;
	return 0;
}

/*
 * Walk the chunks of one heap from its first chunk `at` to `end`: the chunk
 * that ends at `end` is the arena's top (its address in *top), a chunk
 * followed by a header of size 0 is a fencepost (an older heap of the
 * arena ends so). A chunk is in use when the next one says PREV_INUSE.
 */
static int walk_chunks(struct walk *w, uint64_t at, uint64_t end, uint64_t *top)
{
	uint64_t prev = 0, prev_size = 0;
	*top = 0;
	for (uint64_t k = 0; k < CHUNKS_MAX; k++, w->out->chunks++) {
		uint64_t field;
		if (at > end - 16 || rd64(w, at + 8, &field) != 0)
			return bad("a chunk runs past its heap", at);
		uint64_t size = field & ~(uint64_t)7;
		if (prev && size && (field & 1)) {
			int rc = add_chunk(w, prev, prev_size, 0);
			if (rc)
				return rc;
		}
		if (size == 0) /* a fencepost: this heap ends here */
			return 0;
		if (size == 16 && prev_size == 16) /* the main heap's double fencepost */
			return lk_error_set(-ENOTSUP, "glibc's main heap is not contiguous at 0x%"
					    PRIx64 ": something else moved the program break (sbrk), "
					    "or it could not grow and malloc went on in mmapped "
					    "memory; such a heap cannot be read", at);
		if (size % 16 || size > end - at)
			return bad("a chunk size", at);
		if (at + size == end) {
			*top = at;
			return 0;
		}
		prev = size >= 32 ? at : 0; /* a 16-byte chunk is a fencepost */
		prev_size = size;
		at += size;
	}
	return lk_error_set(LK_ELIMIT, "glibc's heap has more than %llu chunks",
			    (unsigned long long)CHUNKS_MAX);
}

static int by_chunk(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;
	return (x->at > y->at) - (x->at < y->at);
}

static struct chunk *chunk_at(struct walk *w, uint64_t at)
{
	struct chunk key = {.at = at};
	return w->n ? bsearch(&key, w->c, w->n, sizeof(*w->c), by_chunk) : NULL;
}

/* --- arenas ------------------------------------------------------------ */

/* The ring of arenas from main: ARENAS_MAX at most, back to main. */
static int arena_ring(struct walk *w, uint64_t main_arena)
{
	uint64_t a = main_arena;
	w->n_arenas = 0;
	do {
		if (w->n_arenas == ARENAS_MAX || (a & 7) || rd64(w, a + ARENA_NEXT, &a) != 0)
			return -1;
		w->arena[w->n_arenas++] = a;
	} while (a != main_arena);
	return 0;
}

/* main_arena: the word of libc's writable data that holds the main heap's
 * top chunk, at malloc_state.top of an arena whose ring closes. */
static int find_main_arena(struct walk *w, uint64_t top, uint64_t *out)
{
	static uint64_t buf[WIN / 8];
	size_t found = 0;
	for (size_t i = 0; i < w->n_maps; i++) {
		const struct map *m = &w->maps[i];
		int bss = i && m->anon && w->maps[i - 1].libc && w->maps[i - 1].hi == m->lo;
		if (!m->writable || !(m->libc || bss))
			continue;
		for (uint64_t at = m->lo; at < m->hi; at += sizeof(buf)) {
			size_t len = m->hi - at < sizeof(buf) ? (size_t)(m->hi - at) : sizeof(buf);
			if (pread(w->fd, buf, len, (off_t)at) != (ssize_t)len)
				break;
			for (size_t k = 0; k < len / 8; k++) {
				uint64_t a = at + k * 8 - ARENA_TOP;
				if (buf[k] == top && arena_ring(w, a) == 0) {
					*out = a;
					found++;
				}
			}
		}
	}
	if (found != 1)
		return lk_error_set(LK_ENOTFOUND, "glibc's main arena was not found in libc's data "
				    "(%zu candidates): is this glibc's malloc?", found);
	return arena_ring(w, *out);
}

/* The main arena's heap: the [heap] mapping, from its start to the top. */
static int walk_main_heap(struct walk *w, const struct map *heap, uint64_t *main_arena)
{
	uint64_t top, first = (heap->lo + 15) & ~(uint64_t)15;
	int rc = walk_chunks(w, first, heap->hi, &top);
	if (rc)
		return rc;
	if (!top)
		return bad("the main heap ends before its top chunk", heap->hi);
	if ((rc = add_heap(w, heap->lo, heap->hi)) != 0)
		return rc;
	return find_main_arena(w, top, main_arena);
}

/* The first chunk of heap h of arena a: after its heap_info, and after the
 * arena itself in the arena's first heap (aligned as malloc aligns). */
static uint64_t first_chunk(uint64_t a, uint64_t h)
{
	uint64_t info = a - (a & ~(HEAP_MAX - 1));
	if ((a & ~(HEAP_MAX - 1)) != h)
		return h + info;
	return (a + ARENA_SIZE + 15) & ~(uint64_t)15;
}

/* Every heap of non-main arena a, from the one of its top down the prev
 * links. */
static int walk_arena(struct walk *w, uint64_t a)
{
	uint64_t top, h;
	if (rd64(w, a + ARENA_TOP, &top) != 0)
		return bad("an arena", a);
	h = top & ~(HEAP_MAX - 1);
	uint64_t info = a - (a & ~(HEAP_MAX - 1));
	if (info < 32 || info > 64)
		return bad("an arena outside its heap", a);
	for (size_t k = 0; h && k < HEAPS_MAX; k++) {
		uint64_t hi[3]; /* ar_ptr, prev, size */
		if (rd(w, h, hi, sizeof(hi)) != 0 || hi[0] != a || hi[2] > HEAP_MAX ||
		    hi[2] < info + 32)
			return bad("a heap_info", h);
		uint64_t found_top;
		int rc = add_heap(w, h, h + HEAP_MAX);
		if (rc || (rc = walk_chunks(w, first_chunk(a, h), h + hi[2], &found_top)) != 0)
			return rc;
		if (found_top && found_top != top)
			return bad("a heap ends with a chunk that is not its arena's top", found_top);
		if (hi[1] && (hi[1] & (HEAP_MAX - 1)))
			return bad("a heap's prev link", h);
		h = hi[1];
	}
	return 0;
}

/* --- what looks in use but is free --------------------------------------- */

/* Mark the chunk of a free list entry (bin: its chunk size) excluded. */
static int exclude(struct walk *w, uint64_t chunk, uint64_t size)
{
	struct chunk *c = chunk_at(w, chunk);
	if (!c || c->size != size || c->excluded || c->mmapped)
		return bad("a free list entry", chunk);
	c->excluded = 1;
	return 0;
}

/* A safe-linked free list from chunk (glibc 2.32: the link after the
 * header holds next ^ (its own address >> 12)); a tcache links the
 * entries' mem (chunk + 16), a fast bin the chunks. */
static int exclude_list(struct walk *w, uint64_t chunk, uint64_t size, int mem_links,
			uint64_t *count)
{
	for (uint64_t k = 0; chunk; k++, (*count)++) {
		uint64_t link;
		int rc = k > w->n ? bad("a free list that loops", chunk) : exclude(w, chunk, size);
		if (rc || (rc = rd64(w, chunk + 16, &link)) != 0)
			return rc ? rc : bad("a free list entry", chunk);
		uint64_t next = link ^ ((chunk + 16) >> 12);
		if (next & 15)
			return bad("a free list link", chunk);
		chunk = next && mem_links ? next - 16 : next;
	}
	return 0;
}

static int exclude_fastbins(struct walk *w)
{
	for (size_t i = 0; i < w->n_arenas; i++) {
		uint64_t head[NFASTBINS];
		if (rd(w, w->arena[i] + ARENA_FASTBINS, head, sizeof(head)) != 0)
			return bad("an arena", w->arena[i]);
		for (int b = 0; b < NFASTBINS; b++) {
			int rc = exclude_list(w, head[b], (uint64_t)(b + 2) * 16, 0,
					      &w->out->in_fastbins);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The entries of one tcache_perthread_struct (the mem of its chunk). */
static int exclude_tcache(struct walk *w, uint64_t mem)
{
	uint64_t entry[TCACHE_BINS];
	if (exclude(w, mem - 16, TCACHE_CHUNK) != 0 ||
	    rd(w, mem + TCACHE_BINS * 2, entry, sizeof(entry)) != 0)
		return bad("a tcache", mem);
	for (int b = 0; b < TCACHE_BINS; b++) {
		if (entry[b] & 15)
			return bad("a tcache entry", mem);
		int rc = exclude_list(w, entry[b] ? entry[b] - 16 : 0, (uint64_t)(b + 2) * 16,
				      1, &w->out->in_tcache);
		if (rc)
			return rc;
	}
	return 0;
}

/* 1 when v is the mem of an in-use chunk that may be a tcache. */
static int tcache_like(struct walk *w, uint64_t v)
{
	struct chunk *c = !(v & 15) && v > 16 ? chunk_at(w, v - 16) : NULL;
	return c && c->size == TCACHE_CHUNK && !c->mmapped;
}

/* The static TLS below thread pointer fs (at most TLS_WINDOW bytes, in the
 * mapping that holds it) into buf; its length in bytes. */
static size_t tls_window(struct walk *w, uint64_t fs, uint64_t *buf)
{
	for (size_t i = 0; i < w->n_maps; i++) {
		const struct map *m = &w->maps[i];
		if (fs <= m->lo || fs > m->hi)
			continue;
		uint64_t lo = fs - m->lo > TLS_WINDOW ? fs - TLS_WINDOW : m->lo;
		size_t len = (size_t)(fs - lo) & ~(size_t)7;
		return pread(w->fd, buf, len, (off_t)(fs - len)) == (ssize_t)len ? len : 0;
	}
	return 0;
}

/* Each live thread's tcache: libc's thread-local `tcache` pointer, at the
 * one offset below the thread pointer where every thread holds either
 * nothing or an in-use 0x290-byte chunk. */
static int exclude_tcaches(struct walk *w, const uint64_t *fs, size_t n)
{
	static uint64_t buf[TLS_WINDOW / 8];
	for (size_t t = 0; t < n; t++) {
		size_t len = tls_window(w, fs[t], buf);
		for (size_t k = len / 8; k-- > 0;) {
			uint64_t off = len - k * 8, v; /* the word lies at fs - off */
			if (!tcache_like(w, buf[k]))
				continue;
			int ok = 1;
			for (size_t u = 0; ok && u < n; u++)
				ok = rd64(w, fs[u] - off, &v) == 0 && (!v || tcache_like(w, v));
			for (size_t u = 0; ok && u < n; u++) {
				int rc = rd64(w, fs[u] - off, &v) == 0 && v ? exclude_tcache(w, v) : 0;
				if (rc)
					return rc;
			}
			if (ok)
				return 0;
		}
	}
	return 0; /* no thread has a tcache (none allocated yet, or it is off) */
}

/* --- mmapped chunks ------------------------------------------------------ */

static int in_heap(const struct walk *w, uint64_t lo)
{
	for (size_t i = 0; i < w->n_heaps; i++)
		if (lo >= w->heaps[i].lo && lo < w->heaps[i].hi)
			return 1;
	return 0;
}

/* Chunks mmapped by themselves from the start of anonymous mapping m (the
 * kernel merges adjacent ones into one line): a header with prev_size 0
 * and a page-multiple size marked IS_MMAPPED only. */
static int walk_mmapped(struct walk *w, const struct map *m)
{
	for (uint64_t at = m->lo; at + 4096 <= m->hi;) {
		uint64_t hdr[2];
		if (rd(w, at, hdr, sizeof(hdr)) != 0 || hdr[0] || (hdr[1] & 7) != CHUNK_MMAPPED)
			return 0;
		uint64_t size = hdr[1] & ~(uint64_t)7;
		if (!size || size % 4096 || size > m->hi - at)
			return 0;
		int rc = add_chunk(w, at, size, 1);
		if (rc)
			return rc;
		w->out->mmapped++;
		at += size;
	}
	return 0;
}

/* --- the result ---------------------------------------------------------- */

static int keep_blocks(struct walk *w)
{
	struct lk_glibc_heap *h = w->out;
	h->blocks = malloc((w->n + 1) * sizeof(*h->blocks));
	if (!h->blocks)
		return -ENOMEM;
	for (size_t i = 0; i < w->n; i++) {
		const struct chunk *c = &w->c[i];
		if (c->excluded)
			continue;
		uint64_t size = c->size - (c->mmapped ? 16 : 8);
		h->blocks[h->n++] = (struct lk_glibc_block){.addr = c->at + 16, .size = size};
		h->bytes += size;
	}
	return 0;
}

static int read_heap(struct walk *w, const uint64_t *fs, size_t n)
{
	int rc = read_maps(w);
	uint64_t main_arena = 0;
	for (size_t i = 0; !rc && i < w->n_maps && !main_arena; i++)
		if (w->maps[i].heap)
			rc = walk_main_heap(w, &w->maps[i], &main_arena);
	if (!rc && !main_arena)
		return lk_error_set(LK_ENOTFOUND, "pid %d has no [heap] mapping: glibc's main "
				    "arena cannot be found", (int)w->pid);
	w->out->arenas = (unsigned)w->n_arenas;
	for (size_t i = 0; !rc && i < w->n_arenas; i++)
		if (w->arena[i] != main_arena)
			rc = walk_arena(w, w->arena[i]);
	for (size_t i = 0; !rc && i < w->n_maps; i++)
		if (w->maps[i].anon && w->maps[i].writable && !in_heap(w, w->maps[i].lo))
			rc = walk_mmapped(w, &w->maps[i]);
	if (rc)
		return rc;
	if (w->n)
		qsort(w->c, w->n, sizeof(*w->c), by_chunk);
	for (size_t i = 1; i < w->n; i++)
		if (w->c[i].at < w->c[i - 1].at + w->c[i - 1].size)
			return bad("chunks that overlap", w->c[i].at);
	if ((rc = exclude_tcaches(w, fs, n)) != 0 || (rc = exclude_fastbins(w)) != 0)
		return rc;
	return keep_blocks(w);
}

int lk_glibc_heap_read(pid_t pid, int mem_fd, const uint64_t *fs_base, size_t n,
		       struct lk_glibc_heap *out)
{
	memset(out, 0, sizeof(*out));
	struct walk *w = calloc(1, sizeof(*w));
	unsigned char *win = malloc(WIN);
	int rc = w && win ? 0 : -ENOMEM;
	if (!rc) {
		w->fd = mem_fd;
		w->pid = pid;
		w->win = win;
		w->out = out;
		rc = read_heap(w, fs_base, n);
	}
	if (rc)
		lk_glibc_heap_release(out);
	if (w) {
		free(w->maps);
		free(w->c);
		free(w->heaps);
	}
	free(w);
	free(win);
	return rc;
}

void lk_glibc_heap_release(struct lk_glibc_heap *h)
{
	free(h->blocks);
	memset(h, 0, sizeof(*h));
}
