/*
 * blocks.h - the live blocks of a trace being analysed, by allocation
 * number (the n-th allocation of the trace: frees name their block so,
 * see trace/format.h): size, allocation time, site, whether the window
 * had started.
 *
 * No address is hashed. The blocks of the latest allocations sit in a ring
 * indexed by number, where a free finds its block without a probe, and
 * near the blocks allocated and freed around it (most blocks die young;
 * many are freed in the order they were made). When a ring entry is
 * wanted again while its block is still live, the ring doubles (in
 * place, in address space reserved at the start) if it is at least half
 * full (a heap that grows keeps its blocks in number order), else the
 * block moves to a hash table of old blocks. Memory: the ring, 24 bytes
 * an entry, at most 4 entries a live block (at least 32,768 entries), and
 * 32 bytes a slot of the old table, at least 2 slots an old block up to
 * 65,536 slots, 4 for 3 beyond.
 */
#ifndef LK_HISTORY_BLOCKS_H
#define LK_HISTORY_BLOCKS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

struct lk_hblock {
	uint64_t size;
	uint64_t t;         /* allocation time, ticks */
	uint32_t site;      /* stack id; LK_HBLOCK_NO_SITE: outside the size filter */
	uint32_t flags;     /* LK_HBLOCK_* */
};

#define LK_HBLOCK_LIVE 1u
#define LK_HBLOCK_IN_WINDOW 2u  /* allocated once the window had started */
#define LK_HBLOCK_NO_SITE UINT32_MAX

#define LK_HBLOCKS_RING_MIN 32768u

struct lk_hblock_old {
	uint64_t number1;   /* number + 1; 0: empty slot */
	struct lk_hblock b;
};

struct lk_hblocks {
	struct lk_hblock *ring;        /* entry n & ring_mask */
	uint64_t ring_mask;            /* entries - 1 (a power of two) */
	uint64_t ring_cap;             /* entries the ring may grow to */
	size_t ring_count;             /* live blocks in the ring */
	uint64_t next;                 /* numbers below have been allocated */
	struct lk_hblock_old *old;
	size_t old_cap, old_count;     /* power of two; live old blocks */
	struct lk_hblock taken;        /* the old block taken last */
};

int lk_hblocks_init(struct lk_hblocks *t);
void lk_hblocks_release(struct lk_hblocks *t);

/* The slow paths of lk_hblocks_add and lk_hblocks_take. */
int lk_hblocks_make_room(struct lk_hblocks *t, uint64_t number);
const struct lk_hblock *lk_hblocks_take_old(struct lk_hblocks *t, uint64_t number);

/* Add the block of allocation `number` (at least t->next; numbers skipped
 * are allocations without a block). 0 or -ENOMEM. */
static inline int lk_hblocks_add(struct lk_hblocks *t, uint64_t number, const struct lk_hblock *b)
{
	if ((t->ring[number & t->ring_mask].flags & LK_HBLOCK_LIVE || number != t->next) &&
	    lk_hblocks_make_room(t, number))
		return -ENOMEM;
	struct lk_hblock *e = &t->ring[number & t->ring_mask];
	*e = *b;
	e->flags |= LK_HBLOCK_LIVE;
	t->next = number + 1;
	t->ring_count++;
	return 0;
}

/* Remove the block of allocation `number`: the block (valid until the
 * next call), or NULL when it is not live. */
static inline const struct lk_hblock *lk_hblocks_take(struct lk_hblocks *t, uint64_t number)
{
	if (t->next - number - 1 > t->ring_mask)   /* older, or not made yet */
		return lk_hblocks_take_old(t, number);
	struct lk_hblock *e = &t->ring[number & t->ring_mask];
	if (!(e->flags & LK_HBLOCK_LIVE))   /* moved out before the ring grew? */
		return t->old_count ? lk_hblocks_take_old(t, number) : NULL;
	e->flags = 0;
	t->ring_count--;
	return e;
}

/* Live blocks. */
static inline size_t lk_hblocks_count(const struct lk_hblocks *t)
{
	return t->ring_count + t->old_count;
}

/* The live block after position *pos (start at 0), or NULL at the end. */
const struct lk_hblock *lk_hblocks_next(const struct lk_hblocks *t, size_t *pos);

#define lk_hblocks_foreach(t, b) \
	for (size_t b##_pos = 0, b##_go = 1; b##_go; b##_go = 0) \
		for (const struct lk_hblock *b; (b = lk_hblocks_next(t, &b##_pos)) != NULL;)

#endif
