/*
 * band_index.h - the bands of a heap profile by key, looked up once a
 * sample (docs/performance.md, "Heap profiles made of censuses").
 *
 * A key is the label of a string sample (-hT, -hy, -hd, -hi ...) or the
 * ids of a cost-centre stack as a -hc sample holds them; bands are
 * numbered 0, 1, ... as they are added. A census lists its bands in an
 * order of its own, so the lookup is the hot path of a census-heavy
 * eventlog: each slot of the open-addressing table holds its key's first
 * 16 and last 8 bytes and its length, so that a key of up to 24 bytes is
 * found, or found absent, by reading one slot (no band record, no key
 * string: their loads would wait for each other). Longer keys are
 * compared in full after their words match.
 *
 * Keys are read in place in an event's payload by whole 8-byte loads, the
 * last of them ending at the key's end: the 8 bytes before a key must be
 * readable (a sample's key lies 9 or 10 bytes into its payload).
 */
#ifndef LK_EVENTLOG_BAND_INDEX_H
#define LK_EVENTLOG_BAND_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A key as the table compares it. */
struct lk_band_key {
	const char *s;
	size_t n;
	uint64_t head[2];   /* bytes [0, 16), zero past n */
	uint64_t last;      /* bytes [n - 8, n) when n > 16, else 0 */
	uint32_t meta;      /* n << 1 | stack */
};

struct lk_band_slot {
	uint64_t head[2], last;
	uint32_t meta;
	uint32_t band1;     /* band + 1; 0: empty */
};

struct lk_band_name {
	char *key;          /* NUL-terminated copy (a stack's ids: binary) */
	size_t n;
	int stack;          /* the ids of a cost-centre stack, 4 bytes each */
};

struct lk_band_index {
	struct lk_band_slot *slots;
	size_t cap;                  /* slots: a power of 2, or 0 */
	struct lk_band_name *names;  /* by band */
	size_t n, cap_names;
};

static inline uint64_t lk_band_load8(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* x >> (8 * (8 - k)) for 0 <= k <= 8 (k = 0: 0, where one shift by 64
 * would be undefined): the last k bytes of a little-endian load. */
static inline uint64_t lk_band_last_bytes(uint64_t x, size_t k)
{
	unsigned sh = (unsigned)(8 - k) * 4;
	return x >> sh >> sh;
}

/* The key of n bytes at s (readable from s - 8: see the top of the
 * file); stack: the ids of a cost-centre stack. */
static inline void lk_band_key_make(struct lk_band_key *k, const char *s, size_t n, int stack)
{
	uint64_t tail = lk_band_load8(s + n - 8);
	k->s = s;
	k->n = n;
	k->meta = (uint32_t)n << 1 | (stack != 0);
	k->last = 0;
	if (n <= 8) {
		k->head[0] = lk_band_last_bytes(tail, n);
		k->head[1] = 0;
	} else if (n <= 16) {
		k->head[0] = lk_band_load8(s);
		k->head[1] = lk_band_last_bytes(tail, n - 8);
	} else {
		k->head[0] = lk_band_load8(s);
		k->head[1] = lk_band_load8(s + 8);
		k->last = tail;
	}
}

static inline size_t lk_band_key_hash(const struct lk_band_key *k)
{
	uint64_t x = (k->head[0] ^ k->last) * 0x9e3779b97f4a7c15ull;
	uint64_t y = (k->head[1] ^ k->meta) * 0xc4ceb9fe1a85ec53ull;
	x ^= y;
	return (size_t)(x ^ x >> 29 ^ x >> 47);
}

/* Whether slot sl holds key k (a key of more than 24 bytes: its words;
 * the rest is compared by lk_band_index_find). */
static inline int lk_band_slot_holds(const struct lk_band_slot *sl, const struct lk_band_key *k)
{
	return ((sl->head[0] ^ k->head[0]) | (sl->head[1] ^ k->head[1]) | (sl->last ^ k->last) |
		(uint64_t)(sl->meta ^ k->meta)) == 0;
}

/* The band of key k, or -1 with *slot where it would go. */
static inline long lk_band_index_find(const struct lk_band_index *x, const struct lk_band_key *k,
				      size_t *slot)
{
	size_t mask = x->cap - 1, h = x->cap ? lk_band_key_hash(k) & mask : 0;
	for (; x->cap && x->slots[h].band1; h = (h + 1) & mask) {
		const struct lk_band_slot *sl = &x->slots[h];
		if (lk_band_slot_holds(sl, k) &&
		    (k->n <= 24 || memcmp(x->names[sl->band1 - 1].key + 16, k->s + 16, k->n - 24) == 0))
			return (long)sl->band1 - 1;
	}
	*slot = h;
	return -1;
}

/* Key k as a new band (not in the index: lk_band_index_find said -1,
 * with slot). Its number, or -ENOMEM. */
long lk_band_index_add(struct lk_band_index *x, const struct lk_band_key *k, size_t slot);

/* The band of key k, added if new: its number, or -ENOMEM. */
static inline long lk_band_index_get(struct lk_band_index *x, const struct lk_band_key *k)
{
	size_t slot;
	long i = lk_band_index_find(x, k, &slot);
	return i >= 0 ? i : lk_band_index_add(x, k, slot);
}

void lk_band_index_release(struct lk_band_index *x);

#endif
