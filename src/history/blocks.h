/*
 * blocks.h - the live blocks of a trace being analysed: address -> size,
 * allocation time, site, the low bits of the allocation serial (the n-th
 * allocation of the trace) and whether the window had started. Open
 * addressing with linear probing and backward-shift deletion, so its
 * memory follows the number of live blocks, never the number of events:
 * 32 bytes a slot, at least 2 slots a block up to 65,536 slots (short
 * probe runs while the table is in the caches), 4 for 3 beyond. Address 0
 * is never stored (it marks an empty slot).
 */
#ifndef LK_HISTORY_BLOCKS_H
#define LK_HISTORY_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

struct lk_hblock {
	uint64_t addr;      /* 0 = empty slot */
	uint64_t size;
	uint64_t t;         /* allocation time, ticks */
	uint32_t site;      /* stack id; LK_HBLOCK_NO_SITE: outside the size filter */
	uint32_t serial : 31;   /* allocation serial 0, 1, 2 ... modulo 2^31 */
	uint32_t in_window : 1; /* allocated once the window had started */
};

#define LK_HBLOCK_SERIAL_MASK 0x7fffffffu

#define LK_HBLOCK_NO_SITE UINT32_MAX

struct lk_hblocks {
	struct lk_hblock *slots;
	size_t cap;         /* power of two */
	size_t count;
	uint64_t bytes;
};

int lk_hblocks_init(struct lk_hblocks *t);
void lk_hblocks_release(struct lk_hblocks *t);
/* Insert b. If b->addr was live already (a lost free), the old block is
 * copied to *old and 1 returned; 0 otherwise, -ENOMEM when full. */
int lk_hblocks_put(struct lk_hblocks *t, const struct lk_hblock *b, struct lk_hblock *old);
/* Remove addr into *out: 0, or -1 when addr is not live. */
int lk_hblocks_del(struct lk_hblocks *t, uint64_t addr, struct lk_hblock *out);

static inline size_t lk_hblocks_slot_of(size_t cap, uint64_t addr)
{
	uint64_t h = addr * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 24) & (cap - 1);
}

/* A hint: addr's slot will be wanted soon (put or del). Reading a few
 * events ahead and prefetching their slots overlaps the cache misses of a
 * table larger than the caches. */
static inline void lk_hblocks_prefetch(const struct lk_hblocks *t, uint64_t addr)
{
	__builtin_prefetch(&t->slots[lk_hblocks_slot_of(t->cap, addr)], 1);
}

#define lk_hblocks_foreach(t, b) \
	for (const struct lk_hblock *b = (t)->slots; b < (t)->slots + (t)->cap; b++) \
		if (b->addr)

#endif
