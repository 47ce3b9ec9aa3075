/* live.c - the live-block hash table (see live.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "collector/live.h"

#define INITIAL_BITS 10

static size_t slot_of(const struct lk_live *t, uint64_t addr)
{
	return (size_t)((addr * t->key) >> t->shift);
}

uint64_t lk_live_key(void)
{
	uint64_t k = 0;
	if (getrandom(&k, sizeof(k), GRND_NONBLOCK) != (ssize_t)sizeof(k)) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		k = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&k;
		k *= 0x9e3779b97f4a7c15ULL;
	}
	return k | 1;
}

int lk_live_init(struct lk_live *t)
{
	memset(t, 0, sizeof(*t));
	t->cap = (size_t)1 << INITIAL_BITS;
	t->shift = 64 - INITIAL_BITS;
	t->key = lk_live_key();
	t->slots = calloc(t->cap, sizeof(*t->slots));
	return t->slots ? 0 : -ENOMEM;
}

void lk_live_release(struct lk_live *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static int grow(struct lk_live *t)
{
	struct lk_live n = {.cap = t->cap * 2, .shift = t->shift - 1, .key = t->key};
	n.slots = calloc(n.cap, sizeof(*n.slots));
	if (!n.slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].addr)
			lk_live_put(&n, &t->slots[i]);
	free(t->slots);
	*t = n;
	return 0;
}

int lk_live_put(struct lk_live *t, const struct lk_block *b)
{
	if (!b->addr)   /* the empty slot's mark: no block lives there */
		return 0;
	if ((t->count + 1) * 4 > t->cap * 3 && grow(t) != 0)
		return 0; /* out of memory: keep what we have */
	for (size_t i = slot_of(t, b->addr);; i = (i + 1) & (t->cap - 1)) {
		struct lk_block *s = &t->slots[i];
		if (s->addr == b->addr) {
			t->bytes += b->size - s->size;
			*s = *b;
			return 1;
		}
		if (!s->addr) {
			*s = *b;
			t->count++;
			t->bytes += b->size;
			return 0;
		}
	}
}

struct lk_block *lk_live_get(const struct lk_live *t, uint64_t addr)
{
	if (!addr)
		return NULL;
	for (size_t i = slot_of(t, addr);; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].addr == addr)
			return &t->slots[i];
		if (!t->slots[i].addr)
			return NULL;
	}
}

int lk_live_del(struct lk_live *t, uint64_t addr, struct lk_block *out)
{
	if (!addr)      /* else the first empty slot would be taken for it */
		return -1;
	size_t mask = t->cap - 1, i = slot_of(t, addr);
	while (t->slots[i].addr != addr) {
		if (!t->slots[i].addr)
			return -1;
		i = (i + 1) & mask;
	}
	if (out)
		*out = t->slots[i];
	t->bytes -= t->slots[i].size;
	t->count--;
	/* backward shift: pull later members of the probe run into the hole */
	for (size_t j = (i + 1) & mask; t->slots[j].addr; j = (j + 1) & mask) {
		size_t home = slot_of(t, t->slots[j].addr);
		if (((j - home) & mask) >= ((j - i) & mask)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].addr = 0;
	return 0;
}
