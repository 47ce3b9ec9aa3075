/*
 * band_index.c - the bands of a heap profile by key (band_index.h): the
 * slow paths, a band added and the table grown. Pure computation.
 */
#include <errno.h>
#include <stdlib.h>

#include "eventlog/band_index.h"

/* The table twice as large (256 slots at first), every band in it. */
static int grow_slots(struct lk_band_index *x)
{
	size_t cap = x->cap ? x->cap * 2 : 256, mask = cap - 1;
	struct lk_band_slot *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < x->cap; i++) {
		const struct lk_band_slot *sl = &x->slots[i];
		if (!sl->band1)
			continue;
		struct lk_band_key k = {.head = {sl->head[0], sl->head[1]}, .last = sl->last,
					.meta = sl->meta};
		size_t h = lk_band_key_hash(&k) & mask;
		while (slots[h].band1)
			h = (h + 1) & mask;
		slots[h] = *sl;
	}
	free(x->slots);
	x->slots = slots;
	x->cap = cap;
	return 0;
}

long lk_band_index_add(struct lk_band_index *x, const struct lk_band_key *k, size_t slot)
{
	if (x->n >= UINT32_MAX - 1)   /* band + 1 in a slot's 32 bits */
		return -ENOMEM;
	if ((x->n + 1) * 2 > x->cap) {
		if (grow_slots(x))
			return -ENOMEM;
		lk_band_index_find(x, k, &slot);
	}
	if (x->n == x->cap_names) {
		size_t cap = x->cap_names ? x->cap_names * 2 : 64;
		struct lk_band_name *names = realloc(x->names, cap * sizeof(*names));
		if (!names)
			return -ENOMEM;
		x->names = names;
		x->cap_names = cap;
	}
	char *key = malloc(k->n + 1);
	if (!key)
		return -ENOMEM;
	memcpy(key, k->s, k->n);
	key[k->n] = 0;
	struct lk_band_slot words = {.head = {k->head[0], k->head[1]}, .last = k->last,
				     .meta = k->meta, .band1 = (uint32_t)x->n + 1};
	x->slots[slot] = words;
	x->names[x->n] = (struct lk_band_name){.words = words, .key = key, .n = k->n,
					       .stack = (int)(k->meta & 1)};
	return lk_band_index_seen(x, (long)x->n++);
}

void lk_band_index_census(struct lk_band_index *x)
{
	if (x->guessing && x->hits * 4 < x->tries * 3) {
		x->guessing = 0;
		x->quiet = 1;
	} else if (!x->guessing && x->quiet++ % LK_BAND_INDEX_GUESS_RETRY == 0) {
		x->guessing = 1;   /* the first census, then every GUESS_RETRY-th */
	}
	x->tries = x->hits = 0;
	x->last1 = 0;
}

/* Keys the caller took (set to NULL) are left alone. */
void lk_band_index_release(struct lk_band_index *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->names[i].key);
	free(x->names);
	free(x->slots);
	*x = (struct lk_band_index){0};
}
