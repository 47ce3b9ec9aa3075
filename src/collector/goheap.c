/* goheap.c - a Go program's heap as a graph (goheap.h). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/elfsym.h"
#include "collector/goheap.h"
#include "common/array.h"

#define ARENA_BYTES (64ULL << 20)
#define ARENA_BASE_OFFSET 0xffff800000000000ULL /* linux/amd64 */
#define PAGE_BYTES 8192ULL
#define SPAN_IN_USE 1       /* mSpanInUse */
#define G_IDLE 0
#define G_RUNNING 2
#define G_SYSCALL 3
#define G_DEAD 6
#define G_SCAN 0x1000
#define MAX_SPANS (1u << 24)
#define MAX_GS (1u << 24)
#define MAX_STACK (1ULL << 30)

/* Where the runtime keeps what we read: byte offsets within its structs. */
enum field {
	MHEAP_ALLSPANS, MHEAP_ALLARENAS,
	SPAN_START, SPAN_NPAGES, SPAN_NELEMS, SPAN_ELEMSIZE, SPAN_FREEINDEX, SPAN_SCANINDEX,
	SPAN_ALLOCBITS, SPAN_SPANCLASS, SPAN_STATE,
	G_STACK, G_SCHED, GOBUF_SP, G_STATUS,
	N_FIELDS
};

static const struct {
	const char *type, *member;
	int optional;
} wanted[N_FIELDS] = {
	[MHEAP_ALLSPANS] = {"runtime.mheap", "allspans", 0},
	[MHEAP_ALLARENAS] = {"runtime.mheap", "allArenas", 0},
	[SPAN_START] = {"runtime.mspan", "startAddr", 0},
	[SPAN_NPAGES] = {"runtime.mspan", "npages", 0},
	[SPAN_NELEMS] = {"runtime.mspan", "nelems", 0},
	[SPAN_ELEMSIZE] = {"runtime.mspan", "elemsize", 0},
	[SPAN_FREEINDEX] = {"runtime.mspan", "freeindex", 0},
	[SPAN_SCANINDEX] = {"runtime.mspan", "freeIndexForScan", 1},
	[SPAN_ALLOCBITS] = {"runtime.mspan", "allocBits", 0},
	[SPAN_SPANCLASS] = {"runtime.mspan", "spanclass", 0},
	[SPAN_STATE] = {"runtime.mspan", "state", 0},
	[G_STACK] = {"runtime.g", "stack", 0},
	[G_SCHED] = {"runtime.g", "sched", 0},
	[GOBUF_SP] = {"runtime.gobuf", "sp", 0},
	[G_STATUS] = {"runtime.g", "atomicstatus", 0},
};

struct layout {
	int64_t off[N_FIELDS];      /* -1: not found */
	uint64_t span_size, g_size;
};

/* The members of one struct DIE that are wanted. */
static void members(Dwarf_Die *type, const char *name, struct layout *l)
{
	Dwarf_Die m;
	if (!strcmp(name, "runtime.mspan") || !strcmp(name, "runtime.g")) {
		Dwarf_Attribute a;
		Dwarf_Word size;
		if (dwarf_formudata(dwarf_attr(type, DW_AT_byte_size, &a), &size) == 0)
			*(strcmp(name, "runtime.g") ? &l->span_size : &l->g_size) = size;
	}
	if (dwarf_child(type, &m) != 0)
		return;
	do {
		const char *mn = dwarf_tag(&m) == DW_TAG_member ? dwarf_diename(&m) : NULL;
		for (int f = 0; mn && f < N_FIELDS; f++) {
			Dwarf_Attribute a;
			Dwarf_Word off;
			if (l->off[f] < 0 && !strcmp(wanted[f].type, name) &&
			    !strcmp(wanted[f].member, mn) &&
			    dwarf_formudata(dwarf_attr(&m, DW_AT_data_member_location, &a), &off) == 0)
				l->off[f] = (int64_t)off;
		}
	} while (dwarf_siblingof(&m, &m) == 0);
}

static int is_wanted_type(const char *name)
{
	for (int f = 0; f < N_FIELDS; f++)
		if (!strcmp(wanted[f].type, name))
			return 1;
	return 0;
}

/* The runtime's layout from the DWARF of exe: 0, or -1 when a field is
 * missing (no DWARF, stripped, another layout). */
static int read_layout(const char *exe, struct layout *l)
{
	for (int f = 0; f < N_FIELDS; f++)
		l->off[f] = -1;
	l->span_size = l->g_size = 0;
	int fd = open(exe, O_RDONLY | O_CLOEXEC);
	Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, d;
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &d) == 0)
			do {
				const char *name = dwarf_tag(&d) == DW_TAG_structure_type
					? dwarf_diename(&d) : NULL;
				if (name && is_wanted_type(name))
					members(&d, name, l);
			} while (dwarf_siblingof(&d, &d) == 0);
		off = next;
	}
	if (dw)
		dwarf_end(dw);
	if (fd >= 0)
		close(fd);
	if (l->off[SPAN_SCANINDEX] < 0)
		l->off[SPAN_SCANINDEX] = l->off[SPAN_FREEINDEX]; /* before Go 1.19 */
	for (int f = 0; f < N_FIELDS; f++)
		if (l->off[f] < 0)
			return -1;
	return l->span_size >= 64 && l->span_size <= 4096 && l->g_size >= 64 &&
	       l->g_size <= 4096 ? 0 : -1;
}

static int rd(int fd, uint64_t addr, void *buf, size_t len)
{
	return pread(fd, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -1;
}

static uint64_t word_at(const uint8_t *p, int64_t off)
{
	uint64_t v;
	memcpy(&v, p + off, 8);
	return v;
}

static int cmp_root(const void *a, const void *b)
{
	const struct lk_reach_root *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

static int cmp_block(const void *a, const void *b)
{
	const struct lk_block *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The arenas of mheap_.allArenas. */
static int read_arenas(struct lk_go_heap *h, int fd, uint64_t mheap, const struct layout *l)
{
	uint64_t sl[2]; /* slice: data, len */
	if (rd(fd, mheap + (uint64_t)l->off[MHEAP_ALLARENAS], sl, sizeof(sl)) || !sl[1] ||
	    sl[1] > (1u << 20))
		return -1;
	uint64_t *idx = malloc(sl[1] * 8);
	h->arenas = malloc(sl[1] * sizeof(*h->arenas));
	if (!idx || !h->arenas || rd(fd, sl[0], idx, sl[1] * 8)) {
		free(idx);
		return -1;
	}
	for (uint64_t i = 0; i < sl[1]; i++) {
		uint64_t lo = idx[i] * ARENA_BYTES + ARENA_BASE_OFFSET;
		h->arenas[i] = (struct lk_reach_root){.lo = lo, .hi = lo + ARENA_BYTES, .kind = "go"};
	}
	h->n_arenas = sl[1];
	free(idx);
	qsort(h->arenas, h->n_arenas, sizeof(*h->arenas), cmp_root);
	return 0;
}

/* The first of the sorted, disjoint ranges r[0..n) that ends above lo. */
static size_t first_above(const struct lk_reach_root *r, size_t n, uint64_t lo)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (r[m].hi <= lo)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* 1 if [lo, hi) meets one of the sorted, disjoint ranges r[0..n). */
static int meets(const struct lk_reach_root *r, size_t n, uint64_t lo, uint64_t hi)
{
	size_t a = first_above(r, n, lo);
	return a < n && r[a].lo < hi;
}

int lk_go_heap_meets(const struct lk_go_heap *h, uint64_t lo, uint64_t hi)
{
	return h && meets(h->skip, h->n_skip, lo, hi);
}

/* The allocated objects of one span in use whose objects may hold
 * pointers; -1 when the span makes no sense (the layout is not what we
 * think). */
static int span_objects(struct lk_go_heap *h, size_t *cap, int fd, const uint8_t *sp,
			const struct layout *l)
{
	uint8_t state = sp[l->off[SPAN_STATE]], spanclass = sp[l->off[SPAN_SPANCLASS]];
	if (state != SPAN_IN_USE || (spanclass & 1)) /* not in use, or noscan */
		return 0;
	uint64_t start = word_at(sp, l->off[SPAN_START]), npages = word_at(sp, l->off[SPAN_NPAGES]);
	uint64_t nelems = word_at(sp, l->off[SPAN_NELEMS]), size = word_at(sp, l->off[SPAN_ELEMSIZE]);
	uint64_t scan = word_at(sp, l->off[SPAN_SCANINDEX]), bits = word_at(sp, l->off[SPAN_ALLOCBITS]);
	if (!npages || npages > (1u << 20) || !size || nelems > (1u << 20) ||
	    nelems * size > npages * PAGE_BYTES || !meets(h->arenas, h->n_arenas, start, start + 1))
		return -1;
	static uint8_t mark[(1u << 20) / 8];
	if (nelems && rd(fd, bits, mark, (nelems + 7) / 8))
		return -1;
	for (uint64_t i = 0; i < nelems; i++) {
		if (i >= scan && !(mark[i / 8] & (1u << (i % 8))))
			continue; /* free */
		if (lk_array_grow(&h->objects, cap, h->n_objects + 1, sizeof(*h->objects), 256))
			return -ENOMEM;
		h->objects[h->n_objects++] = (struct lk_block){.addr = start + i * size, .size = size};
	}
	return 0;
}

static int read_objects(struct lk_go_heap *h, int fd, uint64_t mheap, const struct layout *l)
{
	uint64_t sl[2];
	if (rd(fd, mheap + (uint64_t)l->off[MHEAP_ALLSPANS], sl, sizeof(sl)) || sl[1] > MAX_SPANS)
		return -1;
	uint64_t ptrs[512];
	uint8_t span[4096];
	size_t cap = 0;
	h->skip = malloc((h->n_arenas + sl[1] + 1) * sizeof(*h->skip));
	if (!h->skip)
		return -ENOMEM;
	memcpy(h->skip, h->arenas, h->n_arenas * sizeof(*h->skip));
	h->n_skip = h->n_arenas;
	for (uint64_t at = 0; at < sl[1]; at += 512) {
		size_t n = sl[1] - at < 512 ? (size_t)(sl[1] - at) : 512;
		if (rd(fd, sl[0] + at * 8, ptrs, n * 8))
			return -1;
		for (size_t i = 0; i < n; i++) {
			int rc = ptrs[i] && !rd(fd, ptrs[i], span, l->span_size)
				? span_objects(h, &cap, fd, span, l) : 0;
			if (rc)
				return rc;
			if (ptrs[i])
				h->skip[h->n_skip++] = (struct lk_reach_root){
					.lo = ptrs[i], .hi = ptrs[i] + l->span_size, .kind = "span"};
		}
	}
	qsort(h->skip, h->n_skip, sizeof(*h->skip), cmp_root);
	size_t m = 0; /* merged */
	for (size_t i = 1; i < h->n_skip; i++) {
		if (h->skip[i].lo <= h->skip[m].hi) {
			if (h->skip[i].hi > h->skip[m].hi)
				h->skip[m].hi = h->skip[i].hi;
		} else {
			h->skip[++m] = h->skip[i];
		}
	}
	h->n_skip = h->n_skip ? m + 1 : 0;
	qsort(h->objects, h->n_objects, sizeof(*h->objects), cmp_block);
	for (size_t i = 1; i < h->n_objects; i++)
		if (h->objects[i].addr < h->objects[i - 1].addr + h->objects[i - 1].size)
			return -1; /* spans overlap: not what we think */
	return 0;
}

/* The live goroutines' stacks, from runtime.allgs. */
static int read_stacks(struct lk_go_heap *h, int fd, uint64_t allgs, const struct layout *l,
		       const uint64_t *sps, size_t n_sps)
{
	uint64_t sl[2];
	if (rd(fd, allgs, sl, sizeof(sl)) || sl[1] > MAX_GS)
		return -1;
	uint8_t g[4096];
	size_t cap = 0;
	for (uint64_t i = 0; i < sl[1]; i++) {
		uint64_t gp;
		if (rd(fd, sl[0] + i * 8, &gp, 8) || !gp || rd(fd, gp, g, l->g_size))
			continue;
		uint32_t status;
		memcpy(&status, g + l->off[G_STATUS], 4);
		status &= ~(uint32_t)G_SCAN;
		uint64_t lo = word_at(g, l->off[G_STACK]), hi = word_at(g, l->off[G_STACK] + 8);
		uint64_t sp = word_at(g, l->off[G_SCHED] + l->off[GOBUF_SP]);
		if (status == G_DEAD || status == G_IDLE || lo >= hi || hi - lo > MAX_STACK)
			continue;
		uint64_t from = sp >= lo && sp < hi ? sp : lo;
		if (status == G_RUNNING || status == G_SYSCALL) {
			from = lo; /* its frames are below sched.sp: a thread runs it */
			for (size_t t = 0; t < n_sps; t++)
				if (sps[t] >= lo && sps[t] < hi)
					from = sps[t];
		}
		if (lk_array_grow(&h->stacks, &cap, h->n_stacks + 1, sizeof(*h->stacks), 256))
			return -ENOMEM;
		h->stacks[h->n_stacks++] = (struct lk_reach_root){.lo = from, .hi = hi,
								  .kind = "goroutine"};
	}
	return 0;
}

int lk_go_heap_open(const char *exe, uint64_t bias, int mem_fd, const uint64_t *sps,
		    size_t n_sps, struct lk_go_heap **out, const char **why_not)
{
	static const char *const names[] = {"runtime.mheap_", "runtime.allgs"};
	uint64_t at[2];
	*out = NULL;
	*why_not = NULL;
	if (!exe || lk_elf_symbols(exe, names, at, 2) != 2)
		return 0; /* not a Go program (or a stripped one: nothing to say) */
	*why_not = "Go's heap was scanned whole, as a root: the layout of its runtime "
		   "could not be read (no DWARF, or a Go whose structures differ), so stale "
		   "copies in dead Go objects may keep a C block reachable";
	struct layout l;
	if (read_layout(exe, &l) != 0)
		return 0;
	struct lk_go_heap *h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	int rc = read_arenas(h, mem_fd, at[0] + bias, &l);
	if (!rc)
		rc = read_objects(h, mem_fd, at[0] + bias, &l);
	if (!rc)
		rc = read_stacks(h, mem_fd, at[1] + bias, &l, sps, n_sps);
	if (rc) {
		lk_go_heap_free(h);
		return rc == -ENOMEM ? rc : 0;
	}
	*why_not = NULL;
	*out = h;
	return 0;
}

int lk_go_heap_outside(const struct lk_go_heap *h, uint64_t lo, uint64_t hi,
		       int (*add)(void *ctx, uint64_t a, uint64_t b), void *ctx)
{
	uint64_t at = lo;
	int rc = 0;
	for (size_t i = first_above(h->skip, h->n_skip, lo); i < h->n_skip && at < hi && !rc; i++) {
		const struct lk_reach_root *a = &h->skip[i];
		if (a->hi <= at || a->lo >= hi)
			continue;
		if (a->lo > at)
			rc = add(ctx, at, a->lo);
		at = a->hi;
	}
	return !rc && at < hi ? add(ctx, at, hi) : rc;
}

void lk_go_heap_free(struct lk_go_heap *h)
{
	if (!h)
		return;
	free(h->arenas);
	free(h->skip);
	free(h->objects);
	free(h->stacks);
	free(h);
}
