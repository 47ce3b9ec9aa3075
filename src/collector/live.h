/*
 * live.h - the live-block table of one process: address -> size, stack,
 * thread, flags. Open addressing with linear probing and
 * backward-shift deletion (no tombstones), so its memory follows the number
 * of live blocks, never the number of events.
 *
 * Addresses come from the traced program, which may choose them to collide
 * (it can write its ring itself): the slot is the top bits of the address
 * times a random odd key of each table (multiply-shift hashing), which the
 * program cannot know.
 */
#ifndef LK_COLLECTOR_LIVE_H
#define LK_COLLECTOR_LIVE_H

#include <stddef.h>
#include <stdint.h>

struct lk_block {
	uint64_t addr;   /* 0 = empty slot */
	uint64_t size;
	uint64_t seq;    /* LK_BLOCK_* flags | a recording's number of the block's
			  * allocation in its trace (with LK_BLOCK_TRACED) */
	uint32_t stack;
	uint32_t tid;
};

/* The program said it keeps this block on purpose (leakscope_ignore). */
#define LK_BLOCK_IGNORED (1ULL << 63)
/* The recording's trace holds this block's allocation (src/record/): its
 * free is written too. */
#define LK_BLOCK_TRACED (1ULL << 62)
#define LK_BLOCK_FLAGS (LK_BLOCK_IGNORED | LK_BLOCK_TRACED)
#define LK_BLOCK_NUMBER(seq) ((seq) & ~LK_BLOCK_FLAGS)

struct lk_live {
	struct lk_block *slots;
	size_t cap;      /* power of two, 2^(64 - shift) */
	unsigned shift;
	uint64_t key;    /* random, odd */
	size_t count;
	uint64_t bytes;
};

int lk_live_init(struct lk_live *t);
void lk_live_release(struct lk_live *t);
/* Address 0 is never live: the interposer sends none, and one that a
 * damaged event ring made up is ignored (put) or unknown (del, get). */
/* Insert or replace; returns 1 if addr was already live (a missed free). */
int lk_live_put(struct lk_live *t, const struct lk_block *b);
/* Remove addr; 0 if it was live, -1 if unknown (an unmatched free). */
int lk_live_del(struct lk_live *t, uint64_t addr, struct lk_block *out);
struct lk_block *lk_live_get(const struct lk_live *t, uint64_t addr);

/* A random odd multiplier: (x * key) >> (64 - bits) hashes values the
 * program chose into 2^bits slots, without collisions it can plan. */
uint64_t lk_live_key(void);

#define lk_live_foreach(t, b) \
	for (struct lk_block *b = (t)->slots; b < (t)->slots + (t)->cap; b++) \
		if (b->addr)

#endif
