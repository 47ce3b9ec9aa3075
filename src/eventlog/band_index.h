/*
 * band_index.h - the bands of a heap profile by key, looked up once a
 * sample (docs/performance.md, "Heap profiles made of censuses").
 *
 * A key is the label of a string sample (-hT, -hy, -hd, -hi ...) or the
 * ids of a cost-centre stack as a -hc sample holds them; bands are
 * numbered 0, 1, ... as they are added. Where a census lists its bands in
 * the order of the census before, the band that followed the last one
 * found, last census, is tried first: the bands are then read in order,
 * which the CPU sees coming. Where it lists them in an order of its own
 * (-hc, -hy, -hd of a profiled program) the guess is left off, after a
 * census where it failed once in four or more (tried again every
 * GUESS_RETRY censuses), and every sample is a lookup in the
 * open-addressing table, each
 * of whose slots holds its key's first 16 and last 8 bytes and its
 * length, so that a key of up to 24 bytes is found, or found absent, by
 * reading one slot (no band record, no key string: their loads would
 * wait for each other). Longer keys are compared in full after their
 * words match.
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
	struct lk_band_slot words;  /* as in its slot */
	size_t next1;       /* 1 + the band found after it last time; 0: none */
	char *key;          /* NUL-terminated copy (a stack's ids: binary) */
	size_t n;
	int stack;          /* the ids of a cost-centre stack, 4 bytes each */
};

struct lk_band_index {
	struct lk_band_slot *slots;
	size_t cap;                  /* slots: a power of 2, or 0 */
	struct lk_band_name *names;  /* by band */
	size_t n, cap_names;
	size_t first1, last1;        /* 1 + the band found first, last in this
				      * census; 0: none */
	int guessing;                /* guesses tried and orders recorded */
	size_t tries, hits;          /* of the guesses, this census */
	size_t quiet;                /* censuses without guesses */
};

#define LK_BAND_INDEX_GUESS_RETRY 64

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

/* Whether bytes [16, n - 8) of a and b are the same (n > 24: the others
 * are in a slot's words), 8 at a time, inline: a profile's labels are
 * often 25-40 bytes ("pkg:Module.Constructor"). */
static inline int lk_band_same_middle(const char *a, const char *b, size_t n)
{
	for (size_t i = 16; i < n - 8; i += 8)
		if (lk_band_load8(a + i) != lk_band_load8(b + i))
			return 0;
	return 1;
}

/* Whether band i's key is k, given that its words are k's. */
static inline int lk_band_rest_is(const struct lk_band_index *x, size_t i,
				  const struct lk_band_key *k)
{
	return k->n <= 24 || lk_band_same_middle(x->names[i].key, k->s, k->n);
}

/* Whether band i's key is k. */
static inline int lk_band_is(const struct lk_band_index *x, size_t i, const struct lk_band_key *k)
{
	return lk_band_slot_holds(&x->names[i].words, k) && lk_band_rest_is(x, i, k);
}

/* A census begins: its first band is guessed to be the last one's. */
void lk_band_index_census(struct lk_band_index *x);

/* Band i found (or added): the one that follows it is guessed next time. */
static inline long lk_band_index_seen(struct lk_band_index *x, long i)
{
	if (!x->guessing)
		return i;
	if (x->last1)
		x->names[x->last1 - 1].next1 = (size_t)i + 1;
	else
		x->first1 = (size_t)i + 1;
	x->last1 = (size_t)i + 1;
	return i;
}

/* The band of key k, or -1 with *slot where it would go. */
static inline long lk_band_index_find(struct lk_band_index *x, const struct lk_band_key *k,
				      size_t *slot)
{
	if (x->guessing) {
		size_t guess1 = x->last1 ? x->names[x->last1 - 1].next1 : x->first1;
		x->tries += guess1 != 0;   /* none: a new band, or the first census */
		if (guess1 && lk_band_is(x, guess1 - 1, k)) {
			x->hits++;
			return lk_band_index_seen(x, (long)guess1 - 1);
		}
	}
	size_t mask = x->cap - 1, h = x->cap ? lk_band_key_hash(k) & mask : 0;
	for (; x->cap && x->slots[h].band1; h = (h + 1) & mask) {
		const struct lk_band_slot *sl = &x->slots[h];
		if (lk_band_slot_holds(sl, k) && lk_band_rest_is(x, sl->band1 - 1, k))
			return lk_band_index_seen(x, (long)sl->band1 - 1);
	}
	*slot = h;
	return -1;
}

/* Key k as a new band (not in the index: lk_band_index_find said -1,
 * with slot), found. Its number, or -ENOMEM. */
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
