/*
 * reach_test.c - the reachability classifier on a synthetic target: a few
 * malloc'ed buffers standing at fake addresses, served by a read callback.
 * One case per pointer-chain shape (memcheck's cases 1-9 and more), bad
 * memory, chains of 10^6 blocks, ignored blocks. LEAKSCOPE_REACH_BENCH=1
 * adds the timing of 10^6 blocks of 1 KiB (1 GB through the callback).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/reach.h"
#include "tap.h"

#define HEAP   0x10000000ull   /* blocks at HEAP + i * 0x100 */
#define GLOBAL 0x00600000ull   /* a data segment, used as a root */
#define OTHER  0x00700000ull   /* readable, neither root nor block */
#define BADMEM 0x00800000ull   /* a root nobody can read */

enum { D = LK_REACH_DEFINITE, I = LK_REACH_INDIRECT, P = LK_REACH_POSSIBLE, R = LK_REACH_REACHABLE };

struct seg {
	uint64_t base;
	size_t len;
	unsigned char *mem;
	uint64_t bad_lo, bad_hi;   /* an unreadable part, if any */
};

struct world {
	struct seg segs[8];
	size_t nseg;
	unsigned long reads, failed;
};

static int wread(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct world *w = ctx;
	w->reads++;
	for (size_t i = 0; i < w->nseg; i++) {
		struct seg *s = &w->segs[i];
		if (addr < s->base || addr + len > s->base + s->len)
			continue;
		if (addr < s->bad_hi && addr + len > s->bad_lo)
			break;
		memcpy(buf, s->mem + (addr - s->base), len);
		return 0;
	}
	w->failed++;
	return -1;
}

static struct seg *add_seg(struct world *w, uint64_t base, size_t len)
{
	struct seg *s = &w->segs[w->nseg++];
	s->base = base;
	s->len = len;
	s->mem = calloc(len, 1);
	if (!s->mem) {
		perror("calloc");
		exit(2);
	}
	return s;
}

static void world_init(struct world *w)
{
	memset(w, 0, sizeof(*w));
	add_seg(w, HEAP, 0x10000);
	add_seg(w, GLOBAL, 0x1000);
	add_seg(w, OTHER, 0x1000);
}

static void world_release(struct world *w)
{
	for (size_t i = 0; i < w->nseg; i++)
		free(w->segs[i].mem);
	memset(w, 0, sizeof(*w));
}

/* Store 8 bytes at a target address (any alignment). */
static void put(struct world *w, uint64_t addr, uint64_t v)
{
	for (size_t i = 0; i < w->nseg; i++) {
		struct seg *s = &w->segs[i];
		if (addr >= s->base && addr + 8 <= s->base + s->len) {
			memcpy(s->mem + (addr - s->base), &v, 8);
			return;
		}
	}
	fprintf(stderr, "put: 0x%llx is outside the world\n", (unsigned long long)addr);
	exit(2);
}

static uint64_t blk(int i)
{
	return HEAP + (uint64_t)i * 0x100;
}

/* n blocks at blk(0..n-1) with the given sizes (0 -> 64) */
static void make_blocks(struct lk_block *b, int n, const uint64_t *sizes)
{
	for (int i = 0; i < n; i++)
		b[i] = (struct lk_block){.addr = blk(i), .size = sizes && sizes[i] ? sizes[i] : 64,
					 .seq = (uint64_t)i, .stack = 1, .tid = 1};
}

static const struct lk_reach_root global_root = {GLOBAL, GLOBAL + 0x1000, "data"};

/* Classify and compare every class with want[]; prints what differs. */
static int run(const char *name, struct world *w, const struct lk_block *b, int n,
	       const struct lk_reach_root *roots, size_t nr, const uint64_t *vals, size_t nv,
	       const uint8_t *ignored, const uint8_t *want, struct lk_reach *r)
{
	int rc = lk_reach_classify(b, (size_t)n, roots, nr, vals, nv, ignored, 0, wread, NULL, w, r);
	int good = rc == 0;
	for (int i = 0; good && i < n; i++)
		if (r->classes[i] != want[i]) {
			printf("# %s: block %d at 0x%llx is %s, want %s\n", name, i,
			       (unsigned long long)b[i].addr,
			       lk_reach_class_name(r->classes[i]), lk_reach_class_name(want[i]));
			good = 0;
		}
	ok(good, "%s (rc %d)", name, rc);
	return good;
}

static void t_direct(void)
{
	struct world w;
	struct lk_block b[2];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 2, (uint64_t[]){100, 40});
	put(&w, GLOBAL + 8, blk(1));
	run("direct leak (no pointer) is definite", &w, b, 2, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){D, R}, &r);
	ok(r.bytes[D] == 100 && r.objects[D] == 1 && r.bytes[R] == 40 && r.objects[R] == 1,
	   "direct leak: definite 100 B in 1, reachable 40 B in 1");
	lk_reach_release(&r);
	world_release(&w);
}

static void t_list(void)
{
	struct world w;
	struct lk_block b[5];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 5, (uint64_t[]){48, 24, 24, 24, 24});
	for (int i = 0; i < 4; i++)
		put(&w, blk(i) + 8, blk(i + 1));   /* next pointers at offset 8 */
	run("lost list: head + 4 nodes", &w, b, 5, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){D, I, I, I, I}, &r);
	ok(r.objects[D] == 1 && r.bytes[D] == 48 && r.objects[I] == 4 && r.bytes[I] == 96 &&
	   r.objects[P] == 0 && r.objects[R] == 0,
	   "lost list: definite 48 B in 1, indirect 96 B in 4");
	lk_reach_release(&r);

	/* the same list with the head at the highest address: the nodes are
	 * leaders first, then lose it to the head */
	for (int i = 0; i < 5; i++)
		put(&w, blk(i) + 8, 0);
	for (int i = 4; i > 0; i--)
		put(&w, blk(i) + 8, blk(i - 1));
	run("lost list, head at the highest address", &w, b, 5, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){I, I, I, I, D}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

static void t_cycle(void)
{
	struct world w;
	struct lk_block b[3];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 3, NULL);
	put(&w, blk(0), blk(1));
	put(&w, blk(1), blk(2));
	put(&w, blk(2), blk(0));
	run("lost 3-cycle: 1 definite + 2 indirect", &w, b, 3, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){D, I, I}, &r);
	ok(r.objects[D] == 1 && r.objects[I] == 2, "lost 3-cycle: totals 1 + 2");
	lk_reach_release(&r);

	/* 2-cycle entered from the higher block's side, with a tail */
	put(&w, blk(2), 0);
	put(&w, blk(0), blk(1));
	put(&w, blk(1), blk(0) + 16);   /* interior back-pointer */
	put(&w, blk(1) + 8, blk(2));
	run("lost 2-cycle (one link interior) + tail: 1 definite + 2 indirect", &w, b, 3,
	    &global_root, 1, NULL, 0, NULL, (uint8_t[]){D, I, I}, &r);
	lk_reach_release(&r);

	/* a self-loop is still definite */
	struct lk_block one = b[0];
	memset(w.segs[0].mem, 0, w.segs[0].len);
	put(&w, blk(0), blk(0));
	run("self-pointing lost block is definite", &w, &one, 1, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){D}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

static void t_roots(void)
{
	struct world w;
	struct lk_block b[4];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 4, NULL);
	put(&w, GLOBAL + 0x800, blk(0));
	put(&w, blk(0) + 24, blk(1));          /* reachable through a reachable block */
	run("global -> A -> B: reachable, reachable", &w, b, 4, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){R, R, D, D}, &r);
	ok(r.scanned_bytes == 0x1000 + 4 * 64, "scanned bytes: the root and every block, once");
	lk_reach_release(&r);

	uint64_t regs[] = {0, 42, blk(2), 0xffffffffffffffffull};
	run("register value -> block: reachable", &w, b, 4, &global_root, 1, regs, 4, NULL,
	    (uint8_t[]){R, R, R, D}, &r);
	lk_reach_release(&r);

	/* a register with an interior pointer */
	uint64_t reg_in = blk(3) + 8;
	run("register interior pointer: possible", &w, b, 4, &global_root, 1, &reg_in, 1, NULL,
	    (uint8_t[]){R, R, D, P}, &r);
	lk_reach_release(&r);

	/* stack range given as a root (from sp), no globals */
	struct lk_reach_root stack = {OTHER + 0x100, OTHER + 0x200, "stack"};
	put(&w, OTHER + 0x1f8, blk(3));
	put(&w, OTHER + 0x200, blk(2));        /* just above the range: not a root */
	put(&w, OTHER + 0xf8, blk(1));         /* just below: not a root */
	run("stack range [sp, top): inside counts, outside does not", &w, b, 4, &stack, 1,
	    NULL, 0, NULL, (uint8_t[]){D, I, D, R}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

static void t_interior(void)
{
	struct world w;
	struct lk_block b[4];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 4, NULL);
	put(&w, GLOBAL, blk(0) + 8);
	run("only an interior pointer from a root: possible", &w, b, 1, &global_root, 1, NULL, 0,
	    NULL, (uint8_t[]){P}, &r);
	lk_reach_release(&r);

	/* root -> A (start) -> B (interior) -> C (start); D <- C interior */
	memset(w.segs[1].mem, 0, w.segs[1].len);
	put(&w, GLOBAL, blk(0));
	put(&w, blk(0), blk(1) + 40);
	put(&w, blk(1), blk(2));
	put(&w, blk(2) + 8, blk(3) + 63);
	run("root -> A -> B(interior) -> C -> D(interior): R, P, P, P", &w, b, 4, &global_root, 1,
	    NULL, 0, NULL, (uint8_t[]){R, P, P, P}, &r);
	ok(r.objects[R] == 1 && r.objects[P] == 3 && r.bytes[P] == 192, "possible: 192 B in 3");
	lk_reach_release(&r);

	/* an interior pointer and, later, a start pointer: reachable wins */
	put(&w, GLOBAL + 8, blk(1));
	run("interior then start pointer to B: reachable", &w, b, 4, &global_root, 1, NULL, 0,
	    NULL, (uint8_t[]){R, R, R, P}, &r);
	lk_reach_release(&r);

	/* one past the end is not a pointer into the block */
	memset(w.segs[0].mem, 0, w.segs[0].len);
	memset(w.segs[1].mem, 0, w.segs[1].len);
	put(&w, GLOBAL, blk(0) + 64);
	run("one past the end: no pointer", &w, b, 1, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){D}, &r);
	lk_reach_release(&r);

	/* zero-size block: a pointer equal to its address is a start pointer */
	struct lk_block z[2];
	make_blocks(z, 2, NULL);
	z[0].size = 0;
	z[1].size = 0;
	put(&w, GLOBAL, blk(1));
	run("zero-size blocks: pointed to -> reachable, else definite", &w, z, 2, &global_root, 1,
	    NULL, 0, NULL, (uint8_t[]){D, R}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

/* Issue 5: what a possibly-lost block reaches is possibly lost (memcheck:
 * Unreached -> Possible when the prior block is not definitely reachable),
 * never indirectly lost, even when a lost block points to it too; only what
 * lost blocks alone reach is indirect. */
static void t_possible_children(void)
{
	struct world w;
	struct lk_block b[7];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 7, NULL);
	put(&w, GLOBAL, blk(0) + 5);      /* a tagged pointer: address + 5 */
	put(&w, blk(0) + 16, blk(1));     /* start pointers down from block 0 */
	put(&w, blk(1), blk(2));
	put(&w, blk(1) + 8, blk(6));
	put(&w, blk(3), blk(4));          /* block 3: lost, with a child */
	put(&w, blk(3) + 8, blk(6));      /* and the possible tree's leaf */
	put(&w, blk(4) + 24, blk(5) + 32);/* an interior pointer from lost */
	run("possible tree: P P P; lost 3 -> 4 -> 5 (interior): D I I; shared 6: P", &w, b, 7,
	    &global_root, 1, NULL, 0, NULL, (uint8_t[]){P, P, P, D, I, I, P}, &r);
	ok(r.objects[P] == 4 && r.objects[D] == 1 && r.objects[I] == 2, "4 possible, 1 definite, 2 indirect");
	lk_reach_release(&r);

	/* a start pointer from a root to the possible tree's child: it and
	 * what it reaches are reachable, its parent stays possible */
	put(&w, GLOBAL + 8, blk(1));
	run("root -> child of a possible block: P R R D I I R", &w, b, 7, &global_root, 1, NULL, 0,
	    NULL, (uint8_t[]){P, R, R, D, I, I, R}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

static void t_lost_content(void)
{
	struct world w;
	struct lk_block b[3];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 3, NULL);
	put(&w, blk(2) + 32, blk(0));    /* only a lost block points at block 0 */
	run("pointer only inside a lost block: indirect", &w, b, 3, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){I, D, D}, &r);
	lk_reach_release(&r);

	/* a freed region inside the heap (between blocks), and memory that is
	 * neither root nor block: their pointers count for nothing */
	memset(w.segs[0].mem, 0, w.segs[0].len);
	put(&w, blk(5), blk(0));
	put(&w, OTHER + 16, blk(1));
	run("pointers only in freed / non-root memory: definite", &w, b, 3, &global_root, 1,
	    NULL, 0, NULL, (uint8_t[]){D, D, D}, &r);
	lk_reach_release(&r);

	/* the whole heap passed as a root (an anonymous mapping): words inside
	 * live blocks are not roots, the rest (a freed chunk) is */
	struct lk_reach_root heap = {HEAP, HEAP + 0x10000, "anon"};
	put(&w, blk(2) + 8, blk(1));
	run("heap mapping as root: lost block's content is not a root, freed chunk is", &w, b, 3,
	    &heap, 1, NULL, 0, NULL, (uint8_t[]){R, I, D}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

static void t_unaligned(void)
{
	struct world w;
	struct lk_block b[2];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 2, NULL);
	put(&w, GLOBAL + 4, blk(0));     /* straddles two aligned words */
	put(&w, GLOBAL + 0x21, blk(1));
	run("unaligned pointer bytes are not pointers", &w, b, 2, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){D, D}, &r);
	lk_reach_release(&r);

	/* an unaligned root range: only words wholly inside it count */
	struct lk_reach_root odd = {GLOBAL + 0x101, GLOBAL + 0x117, "data"};
	put(&w, GLOBAL + 0x100, blk(0));   /* starts before lo */
	put(&w, GLOBAL + 0x108, blk(1));   /* wholly inside */
	run("unaligned root range: only whole words inside", &w, b, 2, &odd, 1, NULL, 0, NULL,
	    (uint8_t[]){D, R}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

static void t_unreadable(void)
{
	struct world w;
	struct lk_block b[3];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 3, NULL);
	put(&w, GLOBAL, blk(0));
	struct lk_reach_root roots[] = {
		{BADMEM, BADMEM + 0x3000, "anon"},   /* nothing there */
		global_root,
	};
	run("unreadable root range is skipped", &w, b, 3, roots, 2, NULL, 0, NULL,
	    (uint8_t[]){R, D, D}, &r);
	ok(r.unreadable_roots == 1, "unreadable roots counted: %zu", r.unreadable_roots);
	lk_reach_release(&r);

	/* a guard page inside a root: the pages after it are still scanned */
	struct seg *s = add_seg(&w, 0x900000, 0x4000);
	s->bad_lo = 0x901000;
	s->bad_hi = 0x902000;
	put(&w, 0x903ff8, blk(1));
	struct lk_reach_root guarded = {0x900000, 0x904000, "stack"};
	run("root with an unreadable page: the rest is scanned", &w, b, 3, &guarded, 1, NULL, 0,
	    NULL, (uint8_t[]){D, R, D}, &r);
	ok(r.unreadable_roots == 1 && r.scanned_bytes == 0x3000 + 3 * 64,
	   "guarded root: counted once, 3 pages + 3 blocks scanned (%llu)",
	   (unsigned long long)r.scanned_bytes);
	lk_reach_release(&r);

	/* a reached block whose content cannot be read counts as empty */
	struct lk_block far[2] = {
		{.addr = BADMEM + 0x100, .size = 64},   /* live, unreadable */
		{.addr = blk(2), .size = 64},
	};
	uint64_t reg = BADMEM + 0x100;
	run("unreadable block content counts as empty", &w, far, 2, NULL, 0, &reg, 1, NULL,
	    (uint8_t[]){R, D}, &r);
	ok(r.unreadable_blocks == 1, "unreadable blocks counted: %zu", r.unreadable_blocks);
	lk_reach_release(&r);
	world_release(&w);
}

static void t_ignored(void)
{
	struct world w;
	struct lk_block b[4];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 4, NULL);
	put(&w, blk(1), blk(2));
	put(&w, blk(2), blk(3) + 8);
	run("without ignore: 1 definite, 2 indirect", &w, b, 4, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){D, D, I, I}, &r);
	lk_reach_release(&r);
	run("ignored block: reachable, its pointees too (interior -> possible)", &w, b, 4,
	    &global_root, 1, NULL, 0, (uint8_t[]){0, 1, 0, 0}, (uint8_t[]){D, R, R, P}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

/* new T[0] with a destructor: an 8-byte block holding the count 0, the
 * program's pointer just past it. Reached, as LeakSanitizer says; not
 * when the block holds another count, nor when it is not 8 bytes. */
static void t_array_cookie(void)
{
	struct world w;
	struct lk_block b[3];
	struct lk_reach r;
	world_init(&w);
	make_blocks(b, 3, (uint64_t[]){8, 8, 16});
	put(&w, blk(1), 3);
	put(&w, GLOBAL + 8, blk(0) + 8);
	put(&w, GLOBAL + 16, blk(1) + 8);
	put(&w, GLOBAL + 24, blk(2) + 16);
	run("new T[0]: the pointer past an 8-byte block of count 0 reaches it", &w, b, 3,
	    &global_root, 1, NULL, 0, NULL, (uint8_t[]){R, D, D}, &r);
	lk_reach_release(&r);
	/* the highest block: its end lies past every block */
	run("new T[0]: the highest block too", &w, b, 1, &global_root, 1, NULL, 0, NULL,
	    (uint8_t[]){R}, &r);
	lk_reach_release(&r);
	world_release(&w);
}

/* LK_REACH_WHY: what reached each block first - a root's word (its
 * address), a block's word, a register, kept on purpose; nothing for a
 * lost block; the same classes as without it. */
static void t_why(void)
{
	struct world w;
	struct lk_block b[5];
	struct lk_reach r, plain;
	world_init(&w);
	make_blocks(b, 5, NULL);
	put(&w, GLOBAL + 0x40, blk(0));      /* root -> 0 */
	put(&w, blk(0) + 16, blk(1));        /* 0 -> 1 */
	uint64_t regs[3] = {7, blk(2), 9};   /* register 1 -> 2 */
	uint8_t ignored[5] = {0, 0, 0, 1, 0};/* 3 kept; 4 lost */
	int rc = lk_reach_classify(b, 5, &global_root, 1, regs, 3, ignored, LK_REACH_WHY, wread,
				   NULL, &w, &r);
	int rc2 = lk_reach_classify(b, 5, &global_root, 1, regs, 3, ignored, 0, wread, NULL, &w, &plain);
	ok(rc == 0 && rc2 == 0 && r.why && !plain.why &&
	   memcmp(r.classes, plain.classes, 5) == 0, "why: same classes, why kept only when asked");
	ok(r.why[0].via == LK_VIA_ROOT && r.why[0].index == 0 && r.why[0].where == GLOBAL + 0x40,
	   "why: block 0 from the root's word at its address");
	ok(r.why[1].via == LK_VIA_BLOCK && r.why[1].index == 0 && r.why[1].where == blk(0) + 16,
	   "why: block 1 from block 0's word");
	ok(r.why[2].via == LK_VIA_VALUE && r.why[2].index == 1, "why: block 2 from register 1");
	ok(r.why[3].via == LK_VIA_KEPT, "why: block 3 kept on purpose");
	ok(r.why[4].via == LK_VIA_NONE && r.classes[4] == D, "why: block 4 lost, nothing reached it");
	lk_reach_release(&r);
	lk_reach_release(&plain);
	world_release(&w);
}

/* The fake target's vtables: OTHER holds a table of two code pointers;
 * "code" is [0x400000, 0x500000). */
static unsigned fake_kind(void *ctx, uint64_t a)
{
	if (a >= 0x400000 && a < 0x500000)
		return LK_ADDR_FILE | LK_ADDR_CODE;
	return a >= OTHER && a < OTHER + 0x1000 ? LK_ADDR_FILE : 0;
}

/* valgrind's heuristics: interior pointers that are start pointers for
 * C++ (reach.h, LK_REACH_HEURISTICS); near misses stay possibly lost. */
static void t_heuristics(void)
{
	struct world w;
	struct lk_block b[9];
	struct lk_reach r;
	world_init(&w);
	/* 0: std::string rep (length 5, capacity 7: 24 + 7 + 1 = 32 bytes)
	 * 1: the same with a capacity that does not fit its size
	 * 2: length-prefixed (8 + 40): length 40
	 * 3: new[] of 5 elements of 8 bytes (8 + 40), count 5
	 * 4: count 7 does not divide 40
	 * 5: two polymorphic bases: vtables at its start and at +16
	 * 6: the same without a vtable at +16
	 * 7: an interior pointer at +8 into a block of zeros
	 * 8: an object aligned at +16 that keeps its block's start (at +24) */
	make_blocks(b, 9, (uint64_t[]){32, 32, 48, 48, 48, 32, 32, 48, 64});
	put(&w, blk(0), 5), put(&w, blk(0) + 8, 7);
	put(&w, blk(1), 5), put(&w, blk(1) + 8, 9);
	put(&w, blk(2), 40);
	put(&w, blk(3), 5);
	put(&w, blk(4), 7);
	put(&w, OTHER, 0x400100), put(&w, OTHER + 8, 0), put(&w, OTHER + 16, 0x400200);
	put(&w, blk(5), OTHER), put(&w, blk(5) + 16, OTHER);
	put(&w, blk(6), OTHER), put(&w, blk(6) + 16, 77);
	put(&w, blk(8) + 24, blk(8));
	uint64_t into[9] = {24, 24, 8, 8, 8, 16, 16, 8, 16};
	for (int i = 0; i < 9; i++)
		put(&w, GLOBAL + 8 * (uint64_t)i, blk(i) + into[i]);
	int rc = lk_reach_classify(b, 9, &global_root, 1, NULL, 0, NULL, LK_REACH_HEURISTICS,
				   wread, fake_kind, &w, &r);
	const uint8_t want[9] = {R, P, R, R, P, R, P, P, R};
	int good = rc == 0;
	for (int i = 0; good && i < 9; i++)
		good = r.classes[i] == want[i];
	ok(good, "heuristics: std::string, length64, new[], two bases, an aligned object keeping "
	   "its block reached; near misses possible");
	lk_reach_release(&r);
	rc = lk_reach_classify(b, 9, &global_root, 1, NULL, 0, NULL, 0, wread, fake_kind, &w, &r);
	ok(rc == 0 && r.objects[P] == 9, "without LK_REACH_HEURISTICS all 9 are possibly lost");
	lk_reach_release(&r);
	world_release(&w);
}

static void t_order(void)
{
	struct world w;
	struct lk_reach r;
	world_init(&w);
	/* the caller's order is not address order: classes follow the caller */
	struct lk_block b[4] = {
		{.addr = blk(7), .size = 32}, {.addr = blk(1), .size = 32},
		{.addr = blk(4), .size = 32}, {.addr = blk(2), .size = 32},
	};
	put(&w, GLOBAL, blk(4));
	put(&w, blk(4), blk(2) + 4);
	put(&w, blk(7), blk(1));
	run("unsorted blocks: classes in the caller's order", &w, b, 4, &global_root, 1, NULL, 0,
	    NULL, (uint8_t[]){D, I, R, P}, &r);
	lk_reach_release(&r);

	struct lk_block bad[2] = {{.addr = blk(1), .size = 0x200}, {.addr = blk(2), .size = 8}};
	ok(lk_reach_classify(bad, 2, NULL, 0, NULL, 0, NULL, 0, wread, NULL, &w, &r) < 0 &&
	   r.classes == NULL, "overlapping blocks are refused");
	ok(lk_reach_classify(NULL, 0, &global_root, 1, NULL, 0, NULL, 0, wread, NULL, &w, &r) == 0 &&
	   r.n_blocks == 0, "no blocks: fine");
	lk_reach_release(&r);
	world_release(&w);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A list of n 16-byte blocks; forward: block i -> i + 1, else i -> i - 1. */
static void t_long_chain(int n, int forward, int rooted, int shuffle)
{
	struct world w;
	struct lk_reach r;
	memset(&w, 0, sizeof(w));
	add_seg(&w, GLOBAL, 0x1000);
	struct seg *s = add_seg(&w, HEAP, (size_t)n * 16);
	struct lk_block *b = malloc((size_t)n * sizeof(*b));
	uint8_t *want = malloc((size_t)n);
	if (!b || !want)
		exit(2);
	for (int i = 0; i < n; i++) {
		uint64_t a = HEAP + (uint64_t)i * 16;
		b[i] = (struct lk_block){.addr = a, .size = 16, .seq = (uint64_t)i};
		int next = forward ? i + 1 : i - 1;
		if (next >= 0 && next < n) {
			uint64_t p = HEAP + (uint64_t)next * 16;
			memcpy(s->mem + (size_t)i * 16 + 8, &p, 8);
		}
		int head = forward ? i == 0 : i == n - 1;
		want[i] = rooted ? R : head ? D : I;
	}
	if (rooted)
		put(&w, GLOBAL, forward ? HEAP : HEAP + (uint64_t)(n - 1) * 16);
	if (shuffle) {
		srand(7);
		for (int i = n - 1; i > 0; i--) {
			int j = rand() % (i + 1);
			struct lk_block t = b[i];
			b[i] = b[j];
			b[j] = t;
		}
		for (int i = 0; i < n; i++)   /* every want is the same but the head's */
			want[i] = rooted ? R : (b[i].addr == (forward ? HEAP : HEAP + (uint64_t)(n - 1) * 16)) ? D : I;
	}
	char name[160];
	snprintf(name, sizeof(name), "%d-block list, %s%s%s", n,
		 forward ? "head at the lowest address" : "head at the highest address",
		 rooted ? ", rooted" : ", lost", shuffle ? ", blocks shuffled" : "");
	double t0 = now();
	run(name, &w, b, n, &global_root, 1, NULL, 0, NULL, want, &r);
	double t1 = now();
	if (rooted)
		ok(r.objects[R] == (uint64_t)n, "rooted list: reachable %llu", (unsigned long long)r.objects[R]);
	else
		ok(r.objects[D] == 1 && r.objects[I] == (uint64_t)n - 1,
		   "lost list: definite %llu + indirect %llu (%.3f s)",
		   (unsigned long long)r.objects[D], (unsigned long long)r.objects[I], t1 - t0);
	lk_reach_release(&r);
	free(b);
	free(want);
	world_release(&w);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* 10^6 blocks of 1 KiB, 16 bytes apart like malloc chunks, filled like a
 * heap: a next pointer, then words that are 1/2 zero, 1/4 small integers,
 * 1/8 random bits, 1/8 addresses somewhere in the heap (most of them
 * interior pointers, each one a full lookup). */
static void bench(void)
{
	const int n = 1000000;
	const uint64_t size = 1024, stride = 1040;
	struct world w;
	struct lk_reach r;
	memset(&w, 0, sizeof(w));
	add_seg(&w, GLOBAL, 0x1000);
	struct seg *s = add_seg(&w, HEAP, (size_t)n * stride);
	struct lk_block *b = malloc((size_t)n * sizeof(*b));
	if (!b)
		exit(2);
	uint64_t span = (uint64_t)n * stride;
	for (int i = 0; i < n; i++) {
		uint64_t a = HEAP + (uint64_t)i * stride;
		b[i] = (struct lk_block){.addr = a, .size = size, .seq = (uint64_t)i};
		uint64_t *m = (uint64_t *)(s->mem + (size_t)i * stride);
		/* the first half of the blocks is a rooted list */
		m[0] = i + 1 < n / 2 ? a + stride : 0;
		for (size_t k = 1; k < size / 8; k++) {
			uint64_t x = next_rand(), sel = x & 7;
			m[k] = sel < 4 ? 0 : sel < 6 ? (x >> 40) : sel == 6 ? next_rand()
			     : HEAP + (next_rand() % span);
		}
	}
	for (int i = n - 1; i > 0; i--) {   /* the caller's order is not address order */
		int j = (int)(next_rand() % (uint64_t)(i + 1));
		struct lk_block t = b[i];
		b[i] = b[j];
		b[j] = t;
	}
	put(&w, GLOBAL, HEAP);
	double t0 = now();
	int rc = lk_reach_classify(b, (size_t)n, &global_root, 1, NULL, 0, NULL, 0, wread, NULL, &w, &r);
	double t1 = now();
	ok(rc == 0 && r.scanned_bytes == 0x1000 + (uint64_t)n * size,
	   "bench: 10^6 blocks of 1 KiB, %.1f MB read in %lu reads",
	   r.scanned_bytes / 1e6, w.reads);
	printf("# bench: %.3f s (%.0f MB/s); definite %llu, indirect %llu, possible %llu, reachable %llu\n",
	       t1 - t0, r.scanned_bytes / 1e6 / (t1 - t0),
	       (unsigned long long)r.objects[D], (unsigned long long)r.objects[I],
	       (unsigned long long)r.objects[P], (unsigned long long)r.objects[R]);
	lk_reach_release(&r);
	free(b);
	world_release(&w);
}

int main(void)
{
	t_direct();
	t_list();
	t_cycle();
	t_roots();
	t_interior();
	t_possible_children();
	t_lost_content();
	t_unaligned();
	t_unreadable();
	t_ignored();
	t_array_cookie();
	t_why();
	t_heuristics();
	t_order();
	t_long_chain(1000000, 1, 0, 0);
	t_long_chain(1000000, 0, 0, 1);
	t_long_chain(1000000, 1, 1, 1);
	const char *e = getenv("LEAKSCOPE_REACH_BENCH");
	if (e && strcmp(e, "1") == 0)
		bench();
	else
		printf("# the 1 GB timing runs with LEAKSCOPE_REACH_BENCH=1\n");
	return tap_done();
}
