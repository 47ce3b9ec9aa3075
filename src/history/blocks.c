/* blocks.c - the live blocks of the trace analysis by number (blocks.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "history/blocks.h"

#define HUGE_PAGE (2u << 20)
#define SPARSE_UPTO 65536u     /* slots (2 MiB) up to which the old table stays half empty */
#define SMALL_RING (1u << 18)  /* entries below which the ring doubles a quarter full */
#define RING_RESERVE (1ull << 28)   /* ring entries reserved (4 GiB of address space) */
/* an entry, its wide entry and, kept or not, its time */
#define ENTRY_BYTES(keep_times) \
	(sizeof(uint32_t) + sizeof(uint64_t) + ((keep_times) ? sizeof(uint64_t) : 0))
/* Bytes between the entries and their times: entry n and its time must
 * not lie a multiple of 4 KiB apart, or the processor takes a load from
 * one for a load of a store just made to the other (sqlite's report ran
 * 50% slower so). */
#define TIMES_SKEW 2048u
#define RING_BYTES(n, keep_times) ((n) * ENTRY_BYTES(keep_times) + ((keep_times) ? TIMES_SKEW : 0))

/* Zeroed memory. 2 MiB or more is mapped on its own and asks for huge
 * pages: every lookup of a large table is a TLB miss otherwise. */
static void *zeroed(size_t size)
{
	if (size < HUGE_PAGE)
		return calloc(1, size);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

static void unzeroed(void *p, size_t size)
{
	if (size < HUGE_PAGE)
		free(p);
	else if (p)
		munmap(p, size);
}

/* Entries the ring may reserve: RING_RESERVE, or under a limit of address
 * space or data (ulimit -v, -d) what a quarter of it holds, leaving the
 * rest to the other tables. */
static uint64_t ring_reserve_max(int keep_times)
{
	uint64_t n = RING_RESERVE;
	int limits[] = {RLIMIT_AS, RLIMIT_DATA};
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		struct rlimit r;
		if (getrlimit(limits[i], &r) || r.rlim_cur == RLIM_INFINITY)
			continue;
		while (n > LK_HBLOCKS_RING_MIN && n * ENTRY_BYTES(keep_times) > r.rlim_cur / 4)
			n /= 2;
	}
	return n;
}

/* The ring's address space (entries, wide entries, their times), reserved once
 * (pages are only made when touched), so that it grows in place: entries
 * that move go to the upper half, nothing is copied to a new array. The
 * most that can be reserved, down to what a ring needs at least. */
static void reserve_ring(struct lk_hblocks *t, int keep_times)
{
	uint64_t n = ring_reserve_max(keep_times);
	for (; n >= LK_HBLOCKS_RING_MIN && !t->ring; n /= 4) {
		void *p = mmap(NULL, RING_BYTES(n, keep_times), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		t->ring = p;
		t->ring_wide = (uint64_t *)(t->ring + n);
		madvise(p, RING_BYTES(n, keep_times), MADV_HUGEPAGE);
		/* a few escaped entries must not each make a huge page */
		madvise(t->ring_wide, n * sizeof(*t->ring_wide), MADV_NOHUGEPAGE);
		t->ring_t = keep_times ? (uint64_t *)((char *)(t->ring_wide + n) + TIMES_SKEW) : NULL;
		t->ring_cap = n;
	}
}

int lk_hblocks_init(struct lk_hblocks *t, int keep_times)
{
	memset(t, 0, sizeof(*t));
	t->old_cap = 1024;
	t->ring_mask = LK_HBLOCKS_RING_MIN - 1;
	reserve_ring(t, keep_times);
	t->old = zeroed(t->old_cap * sizeof(*t->old));
	if (t->ring && t->old)
		return 0;
	lk_hblocks_release(t);
	return -ENOMEM;
}

void lk_hblocks_release(struct lk_hblocks *t)
{
	if (t->ring)
		munmap(t->ring, RING_BYTES(t->ring_cap, t->ring_t != NULL));
	unzeroed(t->old, t->old_cap * sizeof(*t->old));
	memset(t, 0, sizeof(*t));
}

/* Home slot of number1 (= number + 1). */
static inline size_t home(size_t cap, uint64_t number1)
{
	return (size_t)((number1 * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static void old_insert(struct lk_hblock_old *slots, size_t cap, const struct lk_hblock_old *e)
{
	size_t i = home(cap, e->number1);
	while (slots[i].number1)
		i = (i + 1) & (cap - 1);
	slots[i] = *e;
}

static int old_grow(struct lk_hblocks *t)
{
	size_t cap = t->old_cap * 2;
	struct lk_hblock_old *slots = zeroed(cap * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->old_cap; i++)
		if (t->old[i].number1)
			old_insert(slots, cap, &t->old[i]);
	unzeroed(t->old, t->old_cap * sizeof(*t->old));
	t->old = slots;
	t->old_cap = cap;
	return 0;
}

/* Small tables (in the caches) are kept at most half full: shorter probe
 * runs; large ones three quarters: less memory to zero and to miss. */
static int old_full(const struct lk_hblocks *t)
{
	size_t n = t->old_count + 1;
	return t->old_cap <= SPARSE_UPTO ? n * 2 > t->old_cap : n * 4 > t->old_cap * 3;
}

/* The number of the block in ring entry r: the latest number below
 * t->next with that residue. */
static uint64_t entry_number(const struct lk_hblocks *t, uint64_t r)
{
	uint64_t last = t->next - 1, m = (last & ~t->ring_mask) | r;
	return m > last ? m - (t->ring_mask + 1) : m;
}

/* The ring twice as long, in place: a live block whose number's new bit
 * is set moves to the upper half. Entry r holds number (last & ~mask) | r
 * up to r = last & mask, and that minus half beyond: the new bit is last's
 * in the first stretch, the other value in the second, so only one
 * stretch can hold blocks that move. */
static void ring_grow(struct lk_hblocks *t)
{
	uint64_t half = t->ring_mask + 1, last = t->next - 1, split = (last & t->ring_mask) + 1;
	uint64_t from = last & half ? 0 : split, to = last & half ? split : half;
	for (uint64_t r = from; r < to; r++) {
		if (t->ring[r]) {
			t->ring[r + half] = t->ring[r];
			if (t->ring[r] >> 16 == LK_HRING_ESCAPE)
				t->ring_wide[r + half] = t->ring_wide[r];
			if (t->ring_t)
				t->ring_t[r + half] = t->ring_t[r];
			t->ring[r] = 0;
		}
	}
	t->ring_mask = 2 * half - 1;
}

static int old_add(struct lk_hblocks *t, const struct lk_hblock_old *o)
{
	if (old_full(t) && old_grow(t))
		return -ENOMEM;
	old_insert(t->old, t->old_cap, o);
	t->old_count++;
	return 0;
}

/* Ring entry r's live block moves to the old table. */
static int retire(struct lk_hblocks *t, uint64_t r)
{
	struct lk_hblock_old o = {.number1 = entry_number(t, r) + 1,
				  .t = t->ring_t ? t->ring_t[r] : LK_HBLOCK_NO_TIME};
	lk_hring_block(t, r, t->ring[r], &o.size, &o.site);
	if (old_add(t, &o))
		return -ENOMEM;
	t->ring_count--;
	t->ring[r] = 0;
	return 0;
}

int lk_hblocks_add_old(struct lk_hblocks *t, uint64_t number, uint64_t size, uint64_t time,
		       uint32_t site)
{
	struct lk_hblock_old o = {.number1 = number + 1, .size = size, .t = time, .site = site};
	if (old_add(t, &o))
		return -ENOMEM;
	t->next = number + 1;
	return 0;
}

/* A block whose size or key does not fit 16 bits: an escaped entry, or
 * the old table for a block of 4 GiB or more, or of key 0. Room for the
 * block in the ring was made. */
int lk_hblocks_add_wide(struct lk_hblocks *t, uint64_t number, uint64_t size, uint64_t time,
			uint32_t site)
{
	uint32_t key = LK_HRING_KEY(site);
	if (size > UINT32_MAX || !key)
		return lk_hblocks_add_old(t, number, size, time, site);
	uint64_t r = number & t->ring_mask;
	t->ring[r] = LK_HRING_ESCAPE << 16;
	t->ring_wide[r] = size | (uint64_t)key << 32;
	if (t->ring_t)
		t->ring_t[r] = time;
	t->next = number + 1;
	t->ring_count++;
	return 0;
}

/* Before allocation `number` enters the ring: the entries of the numbers
 * from t->next on (one, unless numbers were skipped) may still hold live
 * blocks a ring's length older. The ring doubles while it is at least
 * half full (a quarter below SMALL_RING entries), the rest move to the
 * old table. */
int lk_hblocks_make_room(struct lk_hblocks *t, uint64_t number)
{
	while (t->ring[number & t->ring_mask] &&
	       t->ring_count * (t->ring_mask < SMALL_RING ? 4 : 2) > t->ring_mask &&
	       number - t->next <= t->ring_mask &&
	       2 * (t->ring_mask + 1) <= t->ring_cap)
		ring_grow(t);
	uint64_t from = number - t->next <= t->ring_mask ? t->next : number - t->ring_mask;
	for (uint64_t n = from; n <= number; n++)
		if (t->ring[n & t->ring_mask] && retire(t, n & t->ring_mask))
			return -ENOMEM;
	return 0;
}

int lk_hblocks_take_old(struct lk_hblocks *t, uint64_t number, uint64_t *size, uint32_t *site)
{
	size_t mask = t->old_cap - 1, i = home(t->old_cap, number + 1);
	while (t->old[i].number1 != number + 1) {
		if (!t->old[i].number1)
			return 0;
		i = (i + 1) & mask;
	}
	*size = t->old[i].size;
	*site = t->old[i].site;
	t->old_count--;
	/* backward-shift deletion: pull later members of the run into the hole */
	for (size_t j = (i + 1) & mask; t->old[j].number1; j = (j + 1) & mask) {
		size_t h = home(t->old_cap, t->old[j].number1);
		if (((j - h) & mask) >= ((j - i) & mask)) {
			t->old[i] = t->old[j];
			i = j;
		}
	}
	t->old[i].number1 = 0;
	return 1;
}

uint64_t lk_hblocks_time(const struct lk_hblocks *t, uint64_t number)
{
	uint64_t r = number & t->ring_mask;
	if (t->next - number - 1 <= t->ring_mask && t->ring[r])
		return t->ring_t ? t->ring_t[r] : LK_HBLOCK_NO_TIME;
	size_t mask = t->old_cap - 1, i = home(t->old_cap, number + 1);
	for (; t->old_cap && t->old[i].number1; i = (i + 1) & mask)
		if (t->old[i].number1 == number + 1)
			return t->old[i].t;
	return LK_HBLOCK_NO_TIME;
}

int lk_hblocks_next(const struct lk_hblocks *t, struct lk_hblocks_iter *it, struct lk_hblock *b)
{
	size_t n = (size_t)t->ring_mask + 1;
	if (it->ring_seen == t->ring_count && it->pos < n)
		it->pos = n;
	for (; it->pos < n; it->pos++) {
		if (t->ring[it->pos]) {
			*b = (struct lk_hblock){.number = entry_number(t, it->pos),
						.t = t->ring_t ? t->ring_t[it->pos] : LK_HBLOCK_NO_TIME};
			lk_hring_block(t, it->pos, t->ring[it->pos], &b->size, &b->site);
			it->pos++;
			it->ring_seen++;
			return 1;
		}
	}
	for (; it->pos < n + t->old_cap; it->pos++) {
		const struct lk_hblock_old *o = &t->old[it->pos - n];
		if (o->number1) {
			*b = (struct lk_hblock){.number = o->number1 - 1, .size = o->size, .t = o->t,
						.site = o->site};
			it->pos++;
			return 1;
		}
	}
	return 0;
}
