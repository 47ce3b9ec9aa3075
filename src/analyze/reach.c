/*
 * reach.c - the conservative reachability classifier (reach.h).
 *
 * Owns a private index of the blocks sorted by address (blk[]: addr and
 * end; idx[]: the caller's index, by sorted position), one state byte per
 * block, a bucket table for lookups, a growable work stack of sorted
 * positions and one read buffer.
 * Never reads the target except through the callback, never recurses,
 * never allocates on the scanning path (the stack grows by doubling).
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/reach.h"
#include "common/error.h"

#define PAGE 4096u

enum state {              /* per sorted position */
	S_UNSEEN = 0,     /* not reached (yet); a leader in pass 3 */
	S_PENDING,        /* pass 1: hit by an interior pointer only */
	S_REACH,
	S_POSSIBLE,
	S_INDIRECT,
};

enum phase { P_REACH, P_POSSIBLE, P_LOST };

struct span {
	uint64_t addr, end;       /* end = addr + size */
};

struct rc {
	size_t n;
	struct span *blk;         /* sorted by addr */
	uint32_t *idx;            /* sorted position -> caller's index */
	uint8_t *state;
	uint8_t *node;            /* by sorted position: an LK_REACH_NODE object, or NULL */
	uint32_t *bucket;         /* nb + 1 entries: first position with addr >= bucket base */
	unsigned shift;
	uint64_t lo, span;        /* a candidate pointer p has p - lo < span */
	uint32_t *stack;
	size_t sp, scap;
	uint64_t *buf;            /* LK_REACH_CHUNK bytes */
	enum phase phase;
	size_t leader;
	int root_bad;
	unsigned flags;
	struct lk_reach_why *why; /* by sorted position, with LK_REACH_WHY */
	uint32_t *lead;           /* by sorted position: an indirect block's leader */
	struct lk_reach_why from; /* what the words being scanned belong to */
	lk_reach_read_fn read;
	lk_reach_kind_fn kind;
	void *ctx;
	struct lk_reach *out;
};

static int push(struct rc *c, size_t pos)
{
	if (c->sp == c->scap) {
		size_t cap = c->scap ? c->scap * 2 : 4096;
		uint32_t *s = realloc(c->stack, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		c->stack = s;
		c->scap = cap;
	}
	c->stack[c->sp++] = (uint32_t)pos;
	return 0;
}

/* Sorted position of the last block that starts at or below p, or -1.
 * l, r: bucket[b], bucket[b + 1] of p's bucket. That block is in
 * [l - 1, r): the one at l - 1 starts below the bucket's base, hence
 * below p. */
static inline ptrdiff_t find_in(const struct rc *c, uint64_t p, size_t l, size_t r)
{
	if (l > 0)
		l--;
	size_t lo = l, hi = r;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (c->blk[m].addr <= p)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == l || c->blk[lo - 1].addr > p)
		return -1;
	return (ptrdiff_t)(lo - 1);
}

/* C++'s new T[0] of a type with a destructor: an 8-byte block holding
 * the element count (0), and the program keeps the pointer just past it.
 * Such a pointer reaches the block, as LeakSanitizer says. */
static int array_cookie_end(struct rc *c, const struct span *s, uint64_t p)
{
	uint64_t count = 1;
	return p == s->end && s->end - s->addr == 8 &&
	       c->read(c->ctx, s->addr, &count, sizeof(count)) == 0 && count == 0;
}

/* glibc: the address of the chunk header after the block at addr, n bytes */
static inline uint64_t next_chunk(uint64_t addr, uint64_t n)
{
	uint64_t csize = (n + 8 + 15) & ~(uint64_t)15;
	return addr - 16 + (csize < 32 ? 32 : csize);
}

/* The heuristics of LK_REACH_HEURISTICS (reach.h). */
#define VTABLE_SCAN 20

static int looks_like_vtable(struct rc *c, uint64_t a)
{
	uint64_t w[VTABLE_SCAN];
	if ((a & 7) || a < PAGE || !(c->kind(c->ctx, a) & LK_ADDR_FILE))
		return 0;
	size_t n = VTABLE_SCAN;
	while (n && c->read(c->ctx, a, w, n * 8) != 0) /* near the mapping's end */
		n /= 2;
	int fns = 0;
	for (size_t i = 0; i < n; i++) {
		if (!w[i])
			continue;
		if ((c->kind(c->ctx, w[i]) & (LK_ADDR_FILE | LK_ADDR_CODE)) !=
		    (LK_ADDR_FILE | LK_ADDR_CODE))
			return 0;
		if (++fns == 2)
			return 1;
	}
	return 0;
}

static int reached_by_heuristic(struct rc *c, uint64_t p, const struct span *b)
{
	uint64_t h[3] = {0, 0, 0}, size = b->end - b->addr, off = p - b->addr;
	if (off == 24 && size >= 24 && c->read(c->ctx, b->addr, h, 24) == 0 &&
	    h[1] + 25 == size && h[0] <= h[1])
		return 1; /* a reference-counted std::string's characters */
	if (off == 8 && c->read(c->ctx, b->addr, h, 8) == 0 && h[0] > 0 &&
	    (h[0] == size - 8 || (size - 8) % h[0] == 0))
		return 1; /* past a length prefix, or new[]'s element count */
	uint64_t own[4];
	size_t n = size - off < sizeof(own) ? (size_t)(size - off) / 8 : 4;
	if (!(off & 7) && n && c->read(c->ctx, p, own, n * 8) == 0)
		for (size_t i = 0; i < n; i++)
			if (own[i] == b->addr)
				return 1; /* an aligned object keeping its block to free it */
	uint64_t inner = 0;
	return c->kind && !(off & 7) && c->read(c->ctx, p, &inner, 8) == 0 &&
	       c->read(c->ctx, b->addr, h, 8) == 0 && looks_like_vtable(c, inner) &&
	       looks_like_vtable(c, h[0]); /* a second polymorphic base */
}

/* A word that points into block pos: its new state for the current
 * phase; 0, or -ENOMEM when it could not be pushed. */
static inline int hit_state(struct rc *c, uint64_t p, size_t pos)
{
	uint8_t s = c->state[pos];
	const struct span *b = &c->blk[pos];
	if ((c->flags & LK_REACH_GLIBC_CHUNKS) && p != b->addr &&
	    p == next_chunk(b->addr, b->end - b->addr))
		return 0;
	int node = c->node && c->node[pos];
	switch (c->phase) {
	case P_REACH:
		if (s >= S_REACH)
			return 0;
		if (p != c->blk[pos].addr && !node && !((c->flags & LK_REACH_HEURISTICS) &&
							 reached_by_heuristic(c, p, b))) {
			c->state[pos] = S_PENDING;
			return 0;
		}
		c->state[pos] = S_REACH;
		break;
	case P_POSSIBLE:
		if (s != S_UNSEEN)
			return 0;
		c->state[pos] = S_POSSIBLE;
		break;
	case P_LOST:
		if (s != S_UNSEEN || pos == c->leader || node)
			return 0;
		c->state[pos] = S_INDIRECT;
		c->lead[pos] = (uint32_t)c->leader;
		break;
	}
	return push(c, pos);
}

/* With --why: block pos was reached from c->from (its first reach, or a
 * start pointer where an interior one came first). */
static void note_why(struct rc *c, size_t pos, uint8_t before)
{
	if (before == S_UNSEEN ? c->state[pos] != S_UNSEEN
			       : before == S_PENDING && c->state[pos] == S_REACH)
		c->why[pos] = c->from;
}

/* A word that points into block pos, for the current phase. */
static inline int hit(struct rc *c, uint64_t p, size_t pos)
{
	uint8_t s = c->state[pos];
	int r = hit_state(c, p, pos);
	if (__builtin_expect(c->why != NULL, 0))
		note_why(c, pos, s);
	return r;
}

/* Words that pass the range filter are looked up in batches: the bucket
 * entries of the whole batch are prefetched, then their index entries,
 * then the lookups run, so the cache misses of a batch overlap instead of
 * following one another. */
#define BATCH 32

static int lookup_batch(struct rc *c, const uint64_t *cand, size_t nc)
{
	uint32_t l[BATCH], r[BATCH];
	for (size_t j = 0; j < nc; j++)
		__builtin_prefetch(&c->bucket[(cand[j] - c->lo) >> c->shift]);
	for (size_t j = 0; j < nc; j++) {
		size_t b = (size_t)((cand[j] - c->lo) >> c->shift);
		l[j] = c->bucket[b];
		r[j] = c->bucket[b + 1];
		__builtin_prefetch(&c->blk[l[j] ? l[j] - 1 : 0]);
	}
	for (size_t j = 0; j < nc; j++) {
		ptrdiff_t f = find_in(c, cand[j], l[j], r[j]);
		if (f < 0)
			continue;
		const struct span *s = &c->blk[f];
		uint64_t p = cand[j];
		if (p != s->addr && p >= s->end) {
			if (!array_cookie_end(c, s, p))
				continue;
			p = s->addr;
		}
		if (hit(c, p, (size_t)f))
			return -ENOMEM;
	}
	return 0;
}

/* With --why: one word at a time, each with its address (or, for the
 * extra values, its index) in c->from. */
static int scan_words_why(struct rc *c, const uint64_t *w, size_t nw, uint64_t base)
{
	for (size_t i = 0; i < nw; i++) {
		if (w[i] - c->lo >= c->span)
			continue;
		if (c->from.via == LK_VIA_VALUE)
			c->from.index = (uint32_t)i;
		else
			c->from.where = base + 8 * i;
		if (lookup_batch(c, &w[i], 1))
			return -ENOMEM;
	}
	return 0;
}

/* The words w[0..nw) read at address base (0 for the extra values). */
static int scan_words(struct rc *c, const uint64_t *w, size_t nw, uint64_t base)
{
	if (__builtin_expect(c->why != NULL, 0))
		return scan_words_why(c, w, nw, base);
	uint64_t cand[BATCH];
	size_t nc = 0;
	for (size_t i = 0; i < nw; i++) {
		uint64_t p = w[i];
		if (p - c->lo >= c->span)
			continue;
		cand[nc++] = p;
		if (nc == BATCH) {
			if (lookup_batch(c, cand, nc))
				return -ENOMEM;
			nc = 0;
		}
	}
	return nc ? lookup_batch(c, cand, nc) : 0;
}

/* Read and scan the aligned words wholly inside [lo, hi) of a root. A chunk
 * that cannot be read is retried page by page; what still fails is
 * skipped and noted in root_bad. */
static int scan_root_range(struct rc *c, uint64_t lo, uint64_t hi)
{
	if (lo > UINT64_MAX - 7)
		return 0;
	uint64_t a = (lo + 7) & ~7ull, e = hi & ~7ull;
	while (a < e) {
		size_t len = e - a < LK_REACH_CHUNK ? (size_t)(e - a) : LK_REACH_CHUNK;
		if (c->read(c->ctx, a, c->buf, len) == 0) {
			c->out->scanned_bytes += len;
			if (scan_words(c, c->buf, len / 8, a))
				return -ENOMEM;
		} else {
			for (uint64_t x = a; x < a + len;) {
				uint64_t nx = (x & ~(uint64_t)(PAGE - 1)) + PAGE;
				if (nx > a + len)
					nx = a + len;
				if (c->read(c->ctx, x, c->buf, nx - x) == 0) {
					c->out->scanned_bytes += nx - x;
					if (scan_words(c, c->buf, (nx - x) / 8, x))
						return -ENOMEM;
				} else {
					c->root_bad = 1;
				}
				x = nx;
			}
		}
		a += len;
	}
	return 0;
}

/* A root range minus the live blocks inside it. */
static int scan_root(struct rc *c, uint64_t lo, uint64_t hi)
{
	/* k: the first block whose end is above lo (ends are sorted too,
	 * blocks do not overlap) */
	size_t l = 0, r = c->n;
	while (l < r) {
		size_t m = l + (r - l) / 2;
		if (c->blk[m].addr <= lo)
			l = m + 1;
		else
			r = m;
	}
	size_t k = l > 0 && c->blk[l - 1].end > lo ? l - 1 : l;
	uint64_t a = lo;
	while (a < hi) {
		if (k < c->n && c->blk[k].end <= a) {   /* before a, or zero-size */
			k++;
			continue;
		}
		uint64_t stop = hi;
		if (k < c->n && c->blk[k].addr < hi) {
			if (c->blk[k].addr <= a) {      /* inside block k */
				a = c->blk[k].end;
				k++;
				continue;
			}
			stop = c->blk[k].addr;
		}
		if (scan_root_range(c, a, stop))
			return -ENOMEM;
		a = stop;
	}
	return 0;
}

static int scan_block(struct rc *c, size_t pos)
{
	uint64_t lo = c->blk[pos].addr, hi = c->blk[pos].end;
	c->from = (struct lk_reach_why){.via = LK_VIA_BLOCK, .index = c->idx[pos]};
	if (lo > UINT64_MAX - 7)
		return 0;
	uint64_t a = (lo + 7) & ~7ull, e = hi & ~7ull;
	while (a < e) {
		size_t len = e - a < LK_REACH_CHUNK ? (size_t)(e - a) : LK_REACH_CHUNK;
		if (c->read(c->ctx, a, c->buf, len) != 0) {
			c->out->unreadable_blocks++;
			return 0;
		}
		c->out->scanned_bytes += len;
		if (scan_words(c, c->buf, len / 8, a))
			return -ENOMEM;
		a += len;
	}
	return 0;
}

static int drain(struct rc *c)
{
	while (c->sp > 0) {
		size_t pos = c->stack[--c->sp];
		if (scan_block(c, pos))
			return -ENOMEM;
	}
	return 0;
}

struct sortkey {
	uint64_t addr;
	uint32_t idx;
};

/* LSD radix sort by addr - lo, 11 bits a pass, only as many passes as the
 * span of addresses needs (3 or 4 for a real heap). Stable; the sorted
 * keys end in *k (tmp is scratch of the same size). */
static void radix_sort(struct sortkey **k, struct sortkey **tmp, size_t n, uint64_t lo, uint64_t hi)
{
	enum { BITS = 11, RADIX = 1 << BITS };
	static_assert(RADIX <= 4096, "histogram on the stack");
	size_t count[RADIX];
	for (unsigned shift = 0; shift < 64 && ((hi - lo) >> shift) != 0; shift += BITS) {
		struct sortkey *src = *k, *dst = *tmp;
		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[((src[i].addr - lo) >> shift) & (RADIX - 1)]++;
		size_t sum = 0;
		for (size_t d = 0; d < RADIX; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[((src[i].addr - lo) >> shift) & (RADIX - 1)]++] = src[i];
		*k = dst;
		*tmp = src;
	}
}

/* Fill addr/end/idx sorted by address; checks the blocks. */
static int build_index(struct rc *c, const struct lk_block *blocks)
{
	size_t n = c->n;
	int sorted = 1;
	uint64_t amin = UINT64_MAX, amax = 0;
	for (size_t i = 0; i < n; i++) {
		if (blocks[i].addr == 0)
			return lk_error_set(LK_EUSAGE, "block %zu has address 0", i);
		if (blocks[i].size > UINT64_MAX - blocks[i].addr)
			return lk_error_set(LK_EUSAGE, "block at 0x%llx: size past the address space",
					    (unsigned long long)blocks[i].addr);
		if (i > 0 && blocks[i].addr < blocks[i - 1].addr)
			sorted = 0;
		if (blocks[i].addr < amin)
			amin = blocks[i].addr;
		if (blocks[i].addr > amax)
			amax = blocks[i].addr;
	}
	if (sorted) {
		for (size_t i = 0; i < n; i++)
			c->idx[i] = (uint32_t)i;
	} else {
		struct sortkey *k = malloc(n * sizeof(*k)), *tmp = malloc(n * sizeof(*tmp));
		if (!k || !tmp) {
			free(k);
			free(tmp);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			k[i] = (struct sortkey){blocks[i].addr, (uint32_t)i};
		radix_sort(&k, &tmp, n, amin, amax);
		for (size_t i = 0; i < n; i++)
			c->idx[i] = k[i].idx;
		free(k);
		free(tmp);
	}
	uint64_t top = 0;
	for (size_t pos = 0; pos < n; pos++) {
		const struct lk_block *b = &blocks[c->idx[pos]];
		c->blk[pos].addr = b->addr;
		c->blk[pos].end = b->addr + b->size;
		if (pos > 0 && b->addr < c->blk[pos - 1].end)
			return lk_error_set(LK_EUSAGE, "blocks at 0x%llx and 0x%llx overlap",
					    (unsigned long long)c->blk[pos - 1].addr,
					    (unsigned long long)b->addr);
		/* a zero-size block still takes its start address */
		uint64_t hi = b->size ? c->blk[pos].end : b->addr + 1;
		if (hi > top)
			top = hi;
	}
	if (n == 0)
		return 0;
	c->lo = c->blk[0].addr;
	c->span = top - c->lo + 1; /* the end of the last block too (new T[0]) */

	/* buckets: about one per block, each a power-of-two slice of the span */
	size_t nb = 1;
	while (nb < n)
		nb <<= 1;
	unsigned s = 0;
	while (((c->span - 1) >> s) >= nb)
		s++;
	size_t used = (size_t)((c->span - 1) >> s) + 1;
	c->shift = s;
	c->bucket = malloc((used + 1) * sizeof(*c->bucket));
	if (!c->bucket)
		return -ENOMEM;
	size_t pos = 0;
	for (size_t b = 0; b < used; b++) {
		uint64_t base = c->lo + ((uint64_t)b << s);
		while (pos < n && c->blk[pos].addr < base)
			pos++;
		c->bucket[b] = (uint32_t)pos;
	}
	c->bucket[used] = (uint32_t)n;
	return 0;
}

static const uint8_t class_of[] = {
	[S_UNSEEN] = LK_REACH_DEFINITE,
	[S_PENDING] = LK_REACH_POSSIBLE,   /* never left after pass 2 */
	[S_REACH] = LK_REACH_REACHABLE,
	[S_POSSIBLE] = LK_REACH_POSSIBLE,
	[S_INDIRECT] = LK_REACH_INDIRECT,
};

/* The definitely lost block whose structure holds an indirect block pos
 * (itself otherwise): a leader that a later clique reached holds its own
 * clique no longer, so links are followed up to one that stayed; each
 * visited link is then pointed straight at it (path compression: linear
 * in all). */
static size_t leader_of(struct rc *c, size_t pos)
{
	size_t top = pos;
	while (c->state[top] == S_INDIRECT)
		top = c->lead[top];
	while (c->state[pos] == S_INDIRECT && c->lead[pos] != top) {
		size_t next = c->lead[pos];
		c->lead[pos] = (uint32_t)top;
		pos = next;
	}
	return top;
}

static int classify(struct rc *c, const struct lk_block *blocks,
		    const struct lk_reach_root *roots, size_t n_roots,
		    const uint64_t *values, size_t n_values, const uint8_t *ignored)
{
	int rc = build_index(c, blocks);
	if (rc)
		return rc;
	size_t n = c->n;

	/* 1. reachable: start pointers from roots, ignored blocks */
	c->phase = P_REACH;
	for (size_t pos = 0; ignored && pos < n; pos++)
		if (ignored[c->idx[pos]] == LK_REACH_NODE) {
			if (!c->node && !(c->node = calloc(n, 1)))
				return -ENOMEM;
			c->node[pos] = 1;
		}
	if (ignored)
		for (size_t pos = 0; pos < n; pos++)
			if (ignored[c->idx[pos]] == LK_REACH_KEPT) {
				c->state[pos] = S_REACH;
				if (c->why)
					c->why[pos].via = LK_VIA_KEPT;
				if (push(c, pos))
					return -ENOMEM;
			}
	for (size_t i = 0; i < n_roots; i++) {
		if (roots[i].lo >= roots[i].hi)
			continue;
		c->root_bad = 0;
		c->from = (struct lk_reach_why){.via = LK_VIA_ROOT, .index = (uint32_t)i};
		if (scan_root(c, roots[i].lo, roots[i].hi))
			return -ENOMEM;
		c->out->unreadable_roots += c->root_bad;
	}
	c->from = (struct lk_reach_why){.via = LK_VIA_VALUE};
	if (n_values && scan_words(c, values, n_values, 0))
		return -ENOMEM;
	if (drain(c))
		return -ENOMEM;

	/* 2. possibly lost: from what only interior pointers reached */
	c->phase = P_POSSIBLE;
	for (size_t pos = 0; pos < n; pos++)
		if (c->state[pos] == S_PENDING) {
			c->state[pos] = S_POSSIBLE;
			if (push(c, pos))
				return -ENOMEM;
		}
	if (drain(c))
		return -ENOMEM;

	/* 3. lost: cliques in address order */
	c->phase = P_LOST;
	for (size_t pos = 0; pos < n; pos++) {
		if (c->state[pos] != S_UNSEEN || (c->node && c->node[pos]))
			continue;
		c->leader = pos;
		if (push(c, pos) || drain(c))
			return -ENOMEM;
	}

	struct lk_reach *out = c->out;
	for (size_t pos = 0; pos < n; pos++) {
		uint8_t k = class_of[c->state[pos]];
		out->classes[c->idx[pos]] = k;
		out->leader[c->idx[pos]] = c->idx[leader_of(c, pos)];
		if (c->why)
			out->why[c->idx[pos]] = c->why[pos];
		out->bytes[k] += c->blk[pos].end - c->blk[pos].addr;
		out->objects[k]++;
	}
	return 0;
}

int lk_reach_classify(const struct lk_block *blocks, size_t n_blocks,
		      const struct lk_reach_root *roots, size_t n_roots,
		      const uint64_t *extra_values, size_t n_values,
		      const uint8_t *ignored, unsigned flags,
		      lk_reach_read_fn read, lk_reach_kind_fn kind, void *ctx,
		      struct lk_reach *out)
{
	memset(out, 0, sizeof(*out));
	if (n_blocks >= UINT32_MAX)
		return lk_error_set(LK_ELIMIT, "%zu blocks: at most %u are classified",
				    n_blocks, UINT32_MAX - 1);
	struct rc c = {.n = n_blocks, .read = read, .kind = kind, .ctx = ctx, .out = out,
		       .flags = flags};
	size_t m = n_blocks ? n_blocks : 1;
	c.blk = malloc(m * sizeof(*c.blk));
	c.idx = malloc(m * sizeof(*c.idx));
	c.state = calloc(m, 1);
	c.buf = malloc(LK_REACH_CHUNK);
	c.lead = malloc(m * sizeof(*c.lead));
	out->leader = malloc(m * sizeof(*out->leader));
	out->classes = malloc(m);
	out->n_blocks = n_blocks;
	if (flags & LK_REACH_WHY) {
		c.why = calloc(m, sizeof(*c.why));
		out->why = calloc(m, sizeof(*out->why));
	}
	int rc = -ENOMEM;
	if (c.blk && c.idx && c.state && c.buf && c.lead && out->leader && out->classes &&
	    (!(flags & LK_REACH_WHY) || (c.why && out->why)))
		rc = classify(&c, blocks, roots, n_roots, extra_values, n_values, ignored);
	if (rc == -ENOMEM)
		lk_error_set(rc, "out of memory classifying %zu blocks", n_blocks);
	free(c.blk);
	free(c.idx);
	free(c.state);
	free(c.bucket);
	free(c.stack);
	free(c.buf);
	free(c.why);
	free(c.lead);
	free(c.node);
	if (rc) {
		free(out->leader);
		free(out->why);
		free(out->classes);
		memset(out, 0, sizeof(*out));
	}
	return rc;
}

void lk_reach_release(struct lk_reach *r)
{
	free(r->classes);
	free(r->why);
	free(r->leader);
	memset(r, 0, sizeof(*r));
}

const char *lk_reach_class_name(enum lk_reach_class c)
{
	switch (c) {
	case LK_REACH_DEFINITE: return "definite";
	case LK_REACH_INDIRECT: return "indirect";
	case LK_REACH_POSSIBLE: return "possible";
	case LK_REACH_REACHABLE: return "reachable";
	}
	return "?";
}
