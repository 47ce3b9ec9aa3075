/*
 * ghcheap.c - live parts of a shut-down GHC heap (ghcheap.h).
 *
 * Layouts (GHC 9.0 on x86-64, checked against the program's own info
 * tables before use): 1 MiB megablocks, 4 KiB blocks, the first 4 blocks
 * of a megablock hold its 64-byte block descriptors (bdescr: start, free,
 * link, u, gen, gen_no:16, dest_no:16, node:16, flags:16, blocks:32). A
 * block group is described by its first block's descriptor; a free group
 * has free == -1. Info tables sit just before the code an info pointer
 * points to: layout (ptrs:32, nptrs:32) at -16, closure type at -8.
 *
 * Owns its root list, the list of dead groups (the nursery's and free
 * ones) with one visited bit per word, two work stacks and the holes cut
 * from the roots (Handles' buffers). Reads the target only through pread
 * on mem_fd; never recurses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/elfsym.h"
#include "collector/ghcheap.h"
#include "common/array.h"

#define MBLOCK (1ull << 20)
#define BLOCK 4096ull
#define FIRST_BLOCK 4
#define BDESCR 64
#define SCHED_SHUTTING_DOWN 2

/* block flags (a block with none, in generation 0, is the nursery's) */
#define BF_EVACUATED 1
#define BF_LARGE 2
#define BF_PINNED 4
#define BF_MARKED 8
#define BF_COMPACT 512
#define BF_NONMOVING 1024

/* closure types (rts/include/rts/storage/ClosureTypes.h, GHC 9.0) */
enum {
	CONSTR = 1, CONSTR_2_0 = 4, CONSTR_1_1 = 5, CONSTR_NOCAF = 7, FUN = 8, FUN_0_2 = 13,
	FUN_STATIC = 14, THUNK = 15, THUNK_0_2 = 20, THUNK_STATIC = 21, THUNK_SELECTOR = 22,
	AP = 24, PAP = 25, AP_STACK = 26, IND = 27, IND_STATIC = 28, RET_BCO = 29,
	STOP_FRAME = 36, BLOCKING_QUEUE = 37, BLACKHOLE = 38,
	MVAR_CLEAN = 39, MVAR_DIRTY = 40, TVAR = 41, ARR_WORDS = 42, MUT_ARR_PTRS_CLEAN = 43,
	MUT_ARR_PTRS_FROZEN_CLEAN = 46, MUT_VAR_CLEAN = 47, MUT_VAR_DIRTY = 48, WEAK = 49,
	PRIM = 50, MUT_PRIM = 51, TSO = 52, STACK = 53, ATOMICALLY_FRAME = 55,
	CATCH_STM_FRAME = 57, SMALL_MUT_ARR_PTRS_CLEAN = 59,
	SMALL_MUT_ARR_PTRS_FROZEN_CLEAN = 62, N_CLOSURE_TYPES = 64,
};

#define TSO_WORDS 16   /* more than StgTSO's 15 words in GHC 9.0 */

/* A Handle's buffers (base 4.15): GHC.IO.Buffer's Buffer, its ForeignPtr
 * unpacked - the pointer fields (the ForeignPtr's contents, bufState),
 * then Addr#, bufSize, bufOffset, bufL, bufR; the spare buffers of a
 * Handle's BufferList, each a BufferListCons of a boxed ForeignPtr
 * (contents, Addr#) and the rest of the list. */
enum { BUFFER, BUFFER_LIST_CONS, FOREIGN_PTR, N_BUFFER_INFOS };
enum { BUFFER_ADDR = 3, BUFFER_SIZE = 4, FOREIGN_PTR_ADDR = 2 };

struct group {                /* a dead group [start, used): nursery or free */
	uint64_t start, used;
	size_t bit;           /* its first visited bit */
	int rooted;           /* taken whole as a root */
};

struct lk_ghc_heap {
	int fd;
	uint64_t lo, hi;              /* the heap's address space */
	uint64_t ind_static_info;     /* as loaded */
	uint64_t arr_words_info;
	uint64_t buffer_infos[N_BUFFER_INFOS];   /* as loaded; 0: not known */
	struct lk_reach_root *roots;
	size_t n, cap;
	struct group *dead;
	size_t nd, capd;
	uint64_t *statics;            /* lo, hi pairs */
	size_t ns, caps;
	uint64_t *code;               /* lo, hi pairs: where info tables are */
	size_t nc, capc;
	uint64_t *maps;               /* lo, hi pairs: the heap's mappings */
	size_t nm, capm;
	uint64_t *holes;              /* lo, hi pairs: never roots */
	size_t nh, caph;
	int compacted;                /* a mark-compact collection ran */
	uint8_t *visited;
	uint64_t *stack;              /* closures to trace */
	size_t sp, scap;
	size_t *gstack;               /* groups to root whole */
	size_t gsp, gcap;
};

static int rd(const struct lk_ghc_heap *h, uint64_t addr, void *buf, size_t len)
{
	return pread(h->fd, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -EFAULT;
}

static int add_root(struct lk_ghc_heap *h, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return 0;
	if (lk_array_grow(&h->roots, &h->cap, h->n + 1, sizeof(*h->roots), 64))
		return -ENOMEM;
	h->roots[h->n++] = (struct lk_reach_root){.lo = lo, .hi = hi, .kind = "ghc"};
	return 0;
}

static int add_range(uint64_t **a, size_t *n, size_t *cap, uint64_t lo, uint64_t hi)
{
	if (lk_array_grow(a, cap, *n + 1, 2 * sizeof(**a), 64))
		return -ENOMEM;
	(*a)[2 * *n] = lo;
	(*a)[2 * *n + 1] = hi;
	(*n)++;
	return 0;
}

/* The closure type of an info table, or -1. */
static int info_type(const struct lk_ghc_heap *h, uint64_t info, uint32_t layout[2])
{
	uint32_t t[4];
	if (info < 16 || rd(h, info - 16, t, sizeof(t)))
		return -1;
	layout[0] = t[0];
	layout[1] = t[1];
	return (int)t[2];
}

/* The constructors of a Handle's buffers that the program has, with the
 * layouts above (one it has not, or not so, stays 0: what it would name is
 * scanned). */
static void find_buffer_infos(struct lk_ghc_heap *h, const char *exe, uint64_t bias)
{
	static const char *const names[N_BUFFER_INFOS] = {
		"base_GHCziIOziBuffer_Buffer_con_info",
		"base_GHCziIOziHandleziTypes_BufferListCons_con_info",
		"base_GHCziForeignPtr_ForeignPtr_con_info",
	};
	static const uint32_t want[N_BUFFER_INFOS][3] = {
		{CONSTR, 2, 5}, {CONSTR_2_0, 2, 0}, {CONSTR_1_1, 1, 1},
	};
	uint64_t sym[N_BUFFER_INFOS];
	lk_elf_symbols(exe, names, sym, N_BUFFER_INFOS);
	for (size_t i = 0; i < N_BUFFER_INFOS; i++) {
		uint32_t layout[2] = {0, 0};
		if (sym[i] && info_type(h, sym[i] + bias, layout) == (int)want[i][0] &&
		    layout[0] == want[i][1] && layout[1] == want[i][2])
			h->buffer_infos[i] = sym[i] + bias;
	}
	if (!h->buffer_infos[FOREIGN_PTR])
		h->buffer_infos[BUFFER_LIST_CONS] = 0;
}

int lk_ghc_heap_open(const char *exe, uint64_t bias, int mem_fd, struct lk_ghc_heap **out)
{
	static const char *const names[] = {
		"mblock_address_space", "sched_state", "stg_IND_STATIC_info",
		"stg_MUT_VAR_CLEAN_info", "stg_ARR_WORDS_info", "stg_SMALL_MUT_ARR_PTRS_CLEAN_info",
		"stg_MUT_ARR_PTRS_CLEAN_info", "stg_BLACKHOLE_info",
	};
	static const int want[] = {0, 0, IND_STATIC, MUT_VAR_CLEAN, ARR_WORDS,
				   SMALL_MUT_ARR_PTRS_CLEAN, MUT_ARR_PTRS_CLEAN, BLACKHOLE};
	enum { N = sizeof(names) / sizeof(names[0]) };
	uint64_t sym[N], space[2] = {0, 0}, state = 0;
	*out = NULL;
	if (lk_elf_symbols(exe, names, sym, N) != N)
		return 0;
	struct lk_ghc_heap probe = {.fd = mem_fd};
	if (rd(&probe, sym[0] + bias, space, sizeof(space)) || rd(&probe, sym[1] + bias, &state, 8) ||
	    state != SCHED_SHUTTING_DOWN || space[0] >= space[1] || (space[0] & (MBLOCK - 1)))
		return 0;
	for (size_t i = 2; i < N; i++) {
		uint32_t layout[2];
		if (info_type(&probe, sym[i] + bias, layout) != want[i])
			return 0;
	}
	struct lk_ghc_heap *h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->fd = mem_fd;
	h->lo = space[0];
	h->hi = space[1];
	h->ind_static_info = sym[2] + bias;
	h->arr_words_info = sym[4] + bias;
	find_buffer_infos(h, exe, bias);
	*out = h;
	return 0;
}

int lk_ghc_heap_covers(const struct lk_ghc_heap *h, uint64_t lo, uint64_t hi)
{
	return h && lo >= h->lo && hi <= h->hi;
}

static int add_dead(struct lk_ghc_heap *h, uint64_t start, uint64_t used)
{
	if (used <= start)
		return 0;
	if (lk_array_grow(&h->dead, &h->capd, h->nd + 1, sizeof(*h->dead), 64))
		return -ENOMEM;
	h->dead[h->nd++] = (struct group){.start = start, .used = used};
	return 0;
}

/* The block groups of one megablock of a mapping ending at hi; *next:
 * where the next megablock to walk starts (past a group spanning
 * several). A group is cut at hi: its descriptor is the program's memory,
 * and a made-up size must not make a root or a bitmap of terabytes. */
static int walk_megablock(struct lk_ghc_heap *h, uint64_t mb, uint64_t hi, uint64_t *next)
{
	static uint8_t desc[FIRST_BLOCK * BLOCK];
	*next = mb + MBLOCK;
	if (rd(h, mb, desc, sizeof(desc)))
		return add_root(h, mb + FIRST_BLOCK * BLOCK, mb + MBLOCK);
	for (unsigned i = FIRST_BLOCK; i < MBLOCK / BLOCK;) {
		const uint8_t *d = desc + (size_t)i * BDESCR;
		uint64_t start, free;
		uint16_t gen_no, flags;
		uint32_t blocks;
		memcpy(&start, d, 8);
		memcpy(&free, d + 8, 8);
		memcpy(&gen_no, d + 40, 2);
		memcpy(&flags, d + 46, 2);
		memcpy(&blocks, d + 48, 4);
		uint64_t at = mb + (uint64_t)i * BLOCK;
		if (start != at || blocks == 0)   /* not a group head: keep it all */
			return add_root(h, at, mb + MBLOCK);
		uint64_t end = start + (uint64_t)blocks * BLOCK;
		if (end > hi)
			end = hi;
		int rc = 0;
		if ((flags & BF_MARKED) && !(flags & BF_NONMOVING))
			h->compacted = 1;
		if (free == UINT64_MAX || (gen_no == 0 && flags == 0))
			rc = add_dead(h, start, end);   /* free, or the nursery */
		else if (flags & (BF_NONMOVING | BF_COMPACT) || free < start || free > end)
			rc = add_root(h, start, end);
		else
			rc = add_root(h, start, free);
		if (rc)
			return rc;
		if (end >= mb + MBLOCK) {
			*next = (end + MBLOCK - 1) & ~(MBLOCK - 1);
			return 0;
		}
		i += blocks;
	}
	return 0;
}

int lk_ghc_heap_add_mapping(struct lk_ghc_heap *h, uint64_t lo, uint64_t hi)
{
	if (add_range(&h->maps, &h->nm, &h->capm, lo, hi))
		return -ENOMEM;
	uint64_t mb = lo & ~(MBLOCK - 1);
	if (mb < lo) {  /* a partial megablock: no descriptors to trust */
		uint64_t e = mb + MBLOCK < hi ? mb + MBLOCK : hi;
		if (add_root(h, lo, e))
			return -ENOMEM;
		mb += MBLOCK;
	}
	while (mb + MBLOCK <= hi) {
		uint64_t next;
		if (walk_megablock(h, mb, hi, &next))
			return -ENOMEM;
		mb = next;
	}
	return mb < hi ? add_root(h, mb, hi) : 0;
}

int lk_ghc_heap_add_static(struct lk_ghc_heap *h, uint64_t lo, uint64_t hi)
{
	return add_range(&h->statics, &h->ns, &h->caps, lo, hi);
}

int lk_ghc_heap_add_code(struct lk_ghc_heap *h, uint64_t lo, uint64_t hi)
{
	return add_range(&h->code, &h->nc, &h->capc, lo, hi);
}

/* An info pointer: inside the program's code. */
static int is_code(const struct lk_ghc_heap *h, uint64_t p)
{
	for (size_t i = 0; i < h->nc; i++)
		if (p >= h->code[2 * i] + 16 && p < h->code[2 * i + 1])
			return 1;
	return 0;
}

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

/* The dead group holding p, or NULL. */
static struct group *dead_at(struct lk_ghc_heap *h, uint64_t p)
{
	size_t l = 0, r = h->nd;
	while (l < r) {
		size_t m = l + (r - l) / 2;
		if (h->dead[m].start <= p)
			l = m + 1;
		else
			r = m;
	}
	if (l == 0 || p >= h->dead[l - 1].used)
		return NULL;
	return &h->dead[l - 1];
}

static int push(struct lk_ghc_heap *h, uint64_t p)
{
	if (lk_array_grow(&h->stack, &h->scap, h->sp + 1, sizeof(*h->stack), 64))
		return -ENOMEM;
	h->stack[h->sp++] = p;
	return 0;
}

/* A word that may point to a closure in a dead group: traced once. */
static int follow(struct lk_ghc_heap *h, uint64_t w)
{
	uint64_t p = w & ~7ull;
	struct group *g = dead_at(h, p);
	if (!g || g->rooted)
		return 0;
	size_t bit = g->bit + (size_t)((p - g->start) / 8);
	if (h->visited[bit / 8] & (1u << (bit % 8)))
		return 0;
	h->visited[bit / 8] |= (uint8_t)(1u << (bit % 8));
	return push(h, p);
}

/* The byte array whose payload starts at addr, a Handle's buffer of
 * elements bytes or characters (any size if 0), is a hole: it holds input
 * or output, never a reference. */
static int array_hole(struct lk_ghc_heap *h, uint64_t addr, uint64_t elements)
{
	uint64_t arr[2];
	if (addr < h->lo + 16 || addr >= h->hi || rd(h, addr - 16, arr, sizeof(arr)) ||
	    arr[0] != h->arr_words_info || arr[1] == 0 || arr[1] > h->hi - addr ||
	    (elements && arr[1] != elements && arr[1] / 4 != elements))
		return 0;
	return add_range(&h->holes, &h->nh, &h->caph, addr, addr + arr[1]);
}

/* If word, read at p, is the info pointer of a Buffer or a BufferListCons,
 * the byte array it names is a hole. */
static int buffer_at(struct lk_ghc_heap *h, uint64_t p, uint64_t word)
{
	uint64_t w[8];
	if (!word || (word != h->buffer_infos[BUFFER] && word != h->buffer_infos[BUFFER_LIST_CONS]))
		return 0;
	if (word == h->buffer_infos[BUFFER])
		return rd(h, p, w, 8 * 8) ? 0 : array_hole(h, w[BUFFER_ADDR], w[BUFFER_SIZE]);
	if (rd(h, p, w, 2 * 8) ||
	    rd(h, w[1] & ~7ull, w, 3 * 8) || w[0] != h->buffer_infos[FOREIGN_PTR])
		return 0;
	return array_hole(h, w[FOREIGN_PTR_ADDR], 0);
}

/* The buffers of Handles that the roots from..to-1 hold: a word equal to
 * the info pointer of a Buffer or a BufferListCons, whose Addr# is the
 * payload of a byte array (of bufSize bytes or characters for a Buffer). */
static int find_buffer_holes(struct lk_ghc_heap *h, size_t from, size_t to)
{
	static uint64_t buf[BLOCK / 8];
	if (!h->buffer_infos[BUFFER] && !h->buffer_infos[BUFFER_LIST_CONS])
		return 0;
	for (size_t r = from; r < to; r++) {
		uint64_t lo = (h->roots[r].lo + 7) & ~7ull, hi = h->roots[r].hi & ~7ull;
		for (uint64_t a = lo; a < hi; a += BLOCK) {
			size_t len = hi - a < BLOCK ? (size_t)(hi - a) : BLOCK;
			if (rd(h, a, buf, len))
				continue;
			for (size_t i = 0; i < len / 8; i++)
				if (buffer_at(h, a + 8 * i, buf[i]))
					return -ENOMEM;
		}
	}
	return 0;
}

/* A closure the tracer cannot lay out: its whole group is a root, and
 * every word in it that points into a dead group roots that group whole
 * too (conservatively), and so on. */
static int root_group(struct lk_ghc_heap *h, struct group *g)
{
	static uint64_t buf[BLOCK / 8];
	if (g->rooted)
		return 0;
	g->rooted = 1;
	size_t base = h->gsp;
	if (lk_array_grow(&h->gstack, &h->gcap, h->gsp + 1, sizeof(*h->gstack), 64))
		return -ENOMEM;
	h->gstack[h->gsp++] = (size_t)(g - h->dead);
	while (h->gsp > base) {
		g = &h->dead[h->gstack[--h->gsp]];
		if (add_root(h, g->start, g->used))
			return -ENOMEM;
		for (uint64_t a = g->start; a < g->used; a += BLOCK) {
			size_t len = g->used - a < BLOCK ? (size_t)(g->used - a) : BLOCK;
			if (rd(h, a, buf, len))
				continue;
			for (size_t i = 0; i < len / 8; i++) {
				if (buffer_at(h, a + 8 * i, buf[i]))
					return -ENOMEM;
				struct group *t = dead_at(h, buf[i]);
				if (!t || t->rooted)
					continue;
				t->rooted = 1;
				if (lk_array_grow(&h->gstack, &h->gcap, h->gsp + 1,
						  sizeof(*h->gstack), 64))
					return -ENOMEM;
				h->gstack[h->gsp++] = (size_t)(t - h->dead);
			}
		}
	}
	return 0;
}

/* Follow n pointer words at addr. */
static int follow_words(struct lk_ghc_heap *h, uint64_t addr, uint64_t n)
{
	uint64_t buf[64];
	while (n) {
		size_t k = n < 64 ? (size_t)n : 64;
		if (rd(h, addr, buf, k * 8))
			return -EFAULT;
		for (size_t i = 0; i < k; i++)
			if (follow(h, buf[i]))
				return -ENOMEM;
		addr += k * 8;
		n -= k;
	}
	return 0;
}

enum { NOT_A_CLOSURE = -2, UNKNOWN_LAYOUT = -1, FORWARDED = 1 };

struct layout {
	uint64_t info;
	uint64_t hdr;     /* header words */
	uint64_t ptrs;    /* pointer words, after the header */
	uint64_t size;    /* words in all; where it moved for FORWARDED */
};

/* A closure type no object of the heap has: a static closure's (in the
 * program's data) or a stack frame's (inside a STACK object). */
static int never_in_heap(int t)
{
	return t == FUN_STATIC || t == THUNK_STATIC || t == IND_STATIC ||
	       (t >= RET_BCO && t <= STOP_FRAME) || (t >= ATOMICALLY_FRAME && t <= CATCH_STM_FRAME);
}

/* Lay out the closure at p in *l. NOT_A_CLOSURE: no info table of a heap
 * object at its first word (memory reused since - by a thread's stack, say
 * - is what a CAF dead before the last collection points to);
 * UNKNOWN_LAYOUT: a closure of a type not laid out here; FORWARDED: a
 * collection copied it to l->size and left a forwarding pointer (its
 * address + 1) in its place (the CAF died, what it held lived on, e.g. in
 * main's variables). */
static int layout_of(struct lk_ghc_heap *h, uint64_t p, struct layout *l)
{
	uint64_t w[3];
	uint32_t lay[2];
	if (rd(h, p, w, sizeof(w)))
		return NOT_A_CLOSURE;
	if ((w[0] & 7) == 1 && w[0] - 1 >= h->lo && w[0] - 1 < h->hi) {
		l->size = w[0] - 1;        /* a collection moved it there */
		return FORWARDED;
	}
	if (!is_code(h, w[0]))
		return NOT_A_CLOSURE;
	l->info = w[0];
	int t = info_type(h, w[0], lay);
	if (t <= 0 || t >= N_CLOSURE_TYPES || never_in_heap(t))
		return NOT_A_CLOSURE;
	l->hdr = 1;
	if ((t >= CONSTR && t <= CONSTR_NOCAF) || (t >= FUN && t <= FUN_0_2) ||
	    t == IND || t == BLOCKING_QUEUE || t == BLACKHOLE || t == MVAR_CLEAN ||
	    t == MVAR_DIRTY || t == TVAR || t == MUT_VAR_CLEAN || t == MUT_VAR_DIRTY ||
	    t == PRIM || t == MUT_PRIM) {
		l->ptrs = lay[0];
		l->size = 1 + (uint64_t)lay[0] + lay[1];
	} else if ((t >= THUNK && t <= THUNK_0_2) || t == THUNK_SELECTOR) {
		l->hdr = 2;
		l->ptrs = t == THUNK_SELECTOR ? 1 : lay[0];
		l->size = 2 + (t == THUNK_SELECTOR ? 1 : (uint64_t)lay[0] + lay[1]);
	} else if (t == PAP || t == AP || t == AP_STACK) {
		/* the function, then its arguments (or stack words): which of
		 * those are pointers is in the function's bitmap; all of them are
		 * followed, which can only add roots */
		uint64_t n = t == PAP ? w[1] >> 32 : t == AP ? w[2] >> 32 : w[2];
		l->hdr = t == PAP ? 2 : 3;
		l->ptrs = 1 + n;
		l->size = l->hdr + 1 + n;
	} else if (t == TSO) {
		l->ptrs = TSO_WORDS - 1;   /* all its words, an upper bound */
		l->size = TSO_WORDS;
	} else if (t == STACK) {
		l->hdr = 3;                /* header, stack_size, sp; the words */
		l->ptrs = (uint32_t)w[1];
		l->size = 3 + l->ptrs;
	} else if (t == WEAK) {
		l->ptrs = 5;
		l->size = 6;
	} else if (t == ARR_WORDS) {
		l->ptrs = 0;
		l->size = 2 + (w[1] + 7) / 8;
	} else if (t >= MUT_ARR_PTRS_CLEAN && t <= MUT_ARR_PTRS_FROZEN_CLEAN) {
		l->hdr = 3;   /* header, ptrs, size (elements and card table) */
		l->ptrs = w[1];
		l->size = 3 + w[2];
	} else if (t >= SMALL_MUT_ARR_PTRS_CLEAN && t <= SMALL_MUT_ARR_PTRS_FROZEN_CLEAN) {
		l->hdr = 2;
		l->ptrs = w[1];
		l->size = 2 + w[1];
	} else {
		return UNKNOWN_LAYOUT;
	}
	return 0;
}

static int trace_one(struct lk_ghc_heap *h, uint64_t p)
{
	struct group *g = dead_at(h, p);
	struct layout l;
	if (!g || g->rooted)
		return 0;
	int k = layout_of(h, p, &l);
	if (k == NOT_A_CLOSURE)
		return 0;
	if (k == FORWARDED)
		return follow(h, l.size);
	if (k == UNKNOWN_LAYOUT || l.ptrs > l.size - l.hdr || l.size > (g->used - p) / 8)
		return root_group(h, g);
	int rc = follow_words(h, p + l.hdr * 8, l.ptrs);
	if (rc == -EFAULT)
		return root_group(h, g);
	if (!rc)
		rc = buffer_at(h, p, l.info);
	return rc ? rc : add_root(h, p, p + l.size * 8);
}

/* Every CAF of the program (an IND_STATIC in its writable data) whose
 * value lies in a dead group. */
static int follow_cafs(struct lk_ghc_heap *h)
{
	static uint64_t buf[BLOCK / 8 + 1];
	for (size_t s = 0; s < h->ns; s++) {
		uint64_t lo = (h->statics[2 * s] + 7) & ~7ull, hi = h->statics[2 * s + 1] & ~7ull;
		for (uint64_t a = lo; a < hi; a += BLOCK) {
			size_t len = hi - a < BLOCK + 8 ? (size_t)(hi - a) : BLOCK + 8;
			if (rd(h, a, buf, len))
				continue;
			for (size_t i = 0; i + 1 < len / 8 && i < BLOCK / 8; i++)
				if (buf[i] == h->ind_static_info && follow(h, buf[i + 1]))
					return -ENOMEM;
		}
	}
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Sort the holes and merge those that overlap. */
static void merge_holes(struct lk_ghc_heap *h)
{
	qsort(h->holes, h->nh, 2 * sizeof(*h->holes), cmp_range);
	size_t m = 0;
	for (size_t k = 0; k < h->nh; k++) {
		uint64_t lo = h->holes[2 * k], hi = h->holes[2 * k + 1];
		if (m > 0 && lo <= h->holes[2 * m - 1]) {
			if (hi > h->holes[2 * m - 1])
				h->holes[2 * m - 1] = hi;
			continue;
		}
		h->holes[2 * m] = lo;
		h->holes[2 * m + 1] = hi;
		m++;
	}
	h->nh = m;
}

/* The first hole that ends after addr. */
static size_t hole_after(const struct lk_ghc_heap *h, uint64_t addr)
{
	size_t l = 0, r = h->nh;
	while (l < r) {
		size_t m = l + (r - l) / 2;
		if (h->holes[2 * m + 1] <= addr)
			l = m + 1;
		else
			r = m;
	}
	return l;
}

/* The roots without the holes. */
static int cut_holes(struct lk_ghc_heap *h)
{
	if (h->nh == 0)
		return 0;
	merge_holes(h);
	struct lk_reach_root *old = h->roots;
	size_t n = h->n;
	h->roots = NULL;
	h->n = h->cap = 0;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		uint64_t lo = old[i].lo, hi = old[i].hi;
		for (size_t k = hole_after(h, lo); k < h->nh && h->holes[2 * k] < hi && !rc; k++) {
			rc = add_root(h, lo, h->holes[2 * k]);
			lo = h->holes[2 * k + 1];
		}
		if (!rc)
			rc = add_root(h, lo, hi);
	}
	free(old);
	return rc;
}

int lk_ghc_heap_roots(struct lk_ghc_heap *h, struct lk_reach_root **roots, size_t *n)
{
	if (h->compacted) {
		/* dead objects of the compacted generation were overwritten in
		 * place, CAFs' values among them: every mapping is a root */
		h->n = 0;
		for (size_t i = 0; i < h->nm; i++)
			if (add_root(h, h->maps[2 * i], h->maps[2 * i + 1]))
				return -ENOMEM;
		goto done;
	}
	qsort(h->dead, h->nd, sizeof(*h->dead), cmp_group);
	size_t bits = 0;
	for (size_t i = 0; i < h->nd; i++) {
		h->dead[i].bit = bits;
		bits += (size_t)((h->dead[i].used - h->dead[i].start + 7) / 8);
	}
	h->visited = calloc(bits / 8 + 1, 1);
	if (!h->visited || follow_cafs(h))
		return -ENOMEM;
	if (find_buffer_holes(h, 0, h->n))   /* the blocks the collection kept */
		return -ENOMEM;
	while (h->sp > 0)
		if (trace_one(h, h->stack[--h->sp]))
			return -ENOMEM;
	if (cut_holes(h))
		return -ENOMEM;
done:
	*roots = h->roots;
	*n = h->n;
	h->roots = NULL;
	h->n = h->cap = 0;
	return 0;
}

void lk_ghc_heap_free(struct lk_ghc_heap *h)
{
	if (!h)
		return;
	free(h->roots);
	free(h->dead);
	free(h->statics);
	free(h->code);
	free(h->maps);
	free(h->holes);
	free(h->visited);
	free(h->stack);
	free(h->gstack);
	free(h);
}
