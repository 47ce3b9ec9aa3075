/*
 * blocks.h - the live blocks of a trace being analysed, by allocation
 * number (the n-th allocation of the trace: frees name their block so,
 * see trace/format.h): size, allocation time, site.
 *
 * No address is hashed. The blocks of the latest allocations sit in a
 * ring indexed by number, where a free finds its block without a probe,
 * and near the blocks allocated and freed around it (most blocks die
 * young; many are freed in the order they were made). When a ring entry
 * is wanted again while its block is still live, the ring doubles (in
 * place, in address space reserved at the start) if it is at least half
 * full, a quarter while it is small (a heap that grows keeps its blocks
 * in number order; CPython's start sent 9,464 blocks to the old table,
 * 4% of its report), else the block moves to a hash table of old
 * blocks. A ring entry is what a free reads, 4 bytes: size and site in
 * 16 bits each. A block whose size or site needs more has an escape
 * there, its size and site in a wide entry of 8 bytes, in a second array
 * touched only for such blocks, in 4 KiB pages (CPython's report: 4 MiB
 * of ring instead of 8; in a program of more than 65,534 stacks, the
 * later ones, mostly rarer, are escaped).
 * The allocation times are optional (a trace read again gives them for
 * the blocks listed at the end, history.c): if kept, in a third array,
 * read when the live blocks are listed. A block of 4 GiB or more goes to
 * the old table. Memory: the ring, 4 bytes an entry (8 more with times,
 * 8 more where escaped), at most 4 entries a live block (at least 32,768
 * entries, and up to 8 a live block below 262,144 entries), and 32 bytes
 * a slot of the old table, at least 2 slots an old block up to 65,536
 * slots, 4 for 3 beyond.
 */
#ifndef LK_HISTORY_BLOCKS_H
#define LK_HISTORY_BLOCKS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/* A live block, as listed (lk_hblocks_next). */
struct lk_hblock {
	uint64_t number;    /* its allocation's */
	uint64_t size;
	uint64_t t;         /* allocation time, ticks (LK_HBLOCK_NO_TIME: not kept) */
	uint32_t site;      /* stack id; LK_HBLOCK_NO_SITE: outside the size filter */
};

#define LK_HBLOCK_NO_SITE UINT32_MAX
#define LK_HBLOCK_NO_TIME UINT64_MAX

#define LK_HBLOCKS_RING_MIN 32768u

/* A ring entry: 0, no live block; else the block's size in its low 16
 * bits and its key, the site + 2, in its high 16 (LK_HBLOCK_NO_SITE's key
 * is 1; the site UINT32_MAX - 1's is 0, its block goes to the old table),
 * or LK_HRING_ESCAPE there and both in the wide entry: size in the low 32
 * bits, key in the high. */
#define LK_HRING_KEY(site) ((uint32_t)((site) + 2u))
#define LK_HRING_SITE(key) ((uint32_t)((key) - 2u))
#define LK_HRING_ESCAPE 0xffffu

struct lk_hblock_old {
	uint64_t number1;   /* number + 1; 0: empty slot */
	uint64_t size, t;
	uint32_t site;
};

struct lk_hblocks {
	uint32_t *ring;                /* entry n & ring_mask */
	uint64_t *ring_wide;           /* the wide entry of an escaped one */
	uint64_t *ring_t;              /* its block's allocation time (NULL: not kept) */
	uint64_t ring_mask;            /* entries - 1 (a power of two) */
	uint64_t ring_cap;             /* entries the ring may grow to */
	size_t ring_count;             /* live blocks in the ring */
	uint64_t next;                 /* numbers below have been allocated */
	struct lk_hblock_old *old;
	size_t old_cap, old_count;     /* power of two; live old blocks */
};

/* keep_times: the blocks' allocation times are kept (else the blocks
 * listed have LK_HBLOCK_NO_TIME, but those added to the old table at
 * once, lk_hblocks_add_old). 0 or -ENOMEM. */
int lk_hblocks_init(struct lk_hblocks *t, int keep_times);
void lk_hblocks_release(struct lk_hblocks *t);

/* The slow paths of lk_hblocks_add and lk_hblocks_take. */
int lk_hblocks_make_room(struct lk_hblocks *t, uint64_t number);
int lk_hblocks_add_old(struct lk_hblocks *t, uint64_t number, uint64_t size, uint64_t time,
		       uint32_t site);
int lk_hblocks_take_old(struct lk_hblocks *t, uint64_t number, uint64_t *size, uint32_t *site);

/* The size and site of the block in ring entry r, whose value is v. */
static inline void lk_hring_block(const struct lk_hblocks *t, uint64_t r, uint32_t v,
				  uint64_t *size, uint32_t *site)
{
	if (__builtin_expect(v >> 16 == LK_HRING_ESCAPE, 0)) {
		*size = (uint32_t)t->ring_wide[r];
		*site = LK_HRING_SITE((uint32_t)(t->ring_wide[r] >> 32));
	} else {
		*size = v & 0xffff;
		*site = LK_HRING_SITE(v >> 16);
	}
}

/* The slow path of lk_hblocks_add: a block whose size or key does not
 * fit 16 bits. */
int lk_hblocks_add_wide(struct lk_hblocks *t, uint64_t number, uint64_t size, uint64_t time,
			uint32_t site);

/* Add the block of allocation `number` (at least t->next; numbers skipped
 * are allocations without a block), allocated at `time`. 0 or -ENOMEM. */
static inline int lk_hblocks_add(struct lk_hblocks *t, uint64_t number, uint64_t size,
				 uint64_t time, uint32_t site)
{
	if ((t->ring[number & t->ring_mask] || number != t->next) &&
	    lk_hblocks_make_room(t, number))
		return -ENOMEM;
	uint32_t key = LK_HRING_KEY(site);
	if (__builtin_expect(size > 0xffff || key - 1 >= LK_HRING_ESCAPE - 1, 0))
		return lk_hblocks_add_wide(t, number, size, time, site);
	uint64_t r = number & t->ring_mask;
	t->ring[r] = (uint32_t)size | key << 16;
	if (t->ring_t)
		t->ring_t[r] = time;
	t->next = number + 1;
	t->ring_count++;
	return 0;
}

/* Remove the block of allocation `number`: 1 and its size and site, or
 * 0 when it is not live. */
static inline int lk_hblocks_take(struct lk_hblocks *t, uint64_t number, uint64_t *size,
				  uint32_t *site)
{
	if (t->next - number - 1 > t->ring_mask)   /* older, or not made yet */
		return lk_hblocks_take_old(t, number, size, site);
	uint64_t r = number & t->ring_mask;
	uint32_t v = t->ring[r];
	if (!v)   /* moved out before the ring grew, or too large for it? */
		return t->old_count ? lk_hblocks_take_old(t, number, size, site) : 0;
	lk_hring_block(t, r, v, size, site);
	t->ring[r] = 0;
	t->ring_count--;
	return 1;
}

/* The allocation time of the live block of allocation `number`
 * (LK_HBLOCK_NO_TIME: not live, or its time not kept). */
uint64_t lk_hblocks_time(const struct lk_hblocks *t, uint64_t number);

/* Live blocks. */
static inline size_t lk_hblocks_count(const struct lk_hblocks *t)
{
	return t->ring_count + t->old_count;
}

/* Where a listing of the live blocks is. */
struct lk_hblocks_iter {
	size_t pos;            /* the ring's entries, then the old table's slots */
	size_t ring_seen;      /* ring blocks listed: the ring's rest is skipped
				* once all are (its live blocks are often the
				* oldest, in its first stretch) */
};

/* The live block after *it (start at {0}) into *b: 1, or 0 at the end. */
int lk_hblocks_next(const struct lk_hblocks *t, struct lk_hblocks_iter *it, struct lk_hblock *b);

#define lk_hblocks_foreach(t, b) \
	for (struct lk_hblocks_iter b##_it = {0, 0}; b##_it.pos != SIZE_MAX; b##_it.pos = SIZE_MAX) \
		for (struct lk_hblock b; lk_hblocks_next(t, &b##_it, &b);)

#endif
