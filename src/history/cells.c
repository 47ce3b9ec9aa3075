/* cells.c - blocks by allocation and free interval, per site (cells.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "history/cells.h"

#define EMPTY UINT32_MAX

static size_t slot_of(const struct lk_hcells *c, uint32_t site, uint16_t a, uint16_t f)
{
	uint64_t k = (uint64_t)site << 32 | (uint32_t)a << 16 | f;
	k *= 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(k >> 20) & (c->cap - 1);
	while (c->slots[i].site != EMPTY &&
	       (c->slots[i].site != site || c->slots[i].a != a || c->slots[i].f != f))
		i = (i + 1) & (c->cap - 1);
	return i;
}

static struct lk_hcell *table(size_t cap)
{
	struct lk_hcell *t = malloc(cap * sizeof(*t));
	for (size_t i = 0; t && i < cap; i++)
		t[i].site = EMPTY;
	return t;
}

static void put(struct lk_hcells *c, const struct lk_hcell *x)
{
	struct lk_hcell *s = &c->slots[slot_of(c, x->site, x->a, x->f)];
	if (s->site == EMPTY) {
		*s = (struct lk_hcell){x->site, x->a, x->f, 0, 0, 0};
		c->n++;
	}
	s->count += x->count;
	s->bytes += x->bytes;
	s->temps += x->temps;
}

/* Rebuild the table with cap slots, each cell's intervals through halve
 * (or kept when !halve). */
static int rebuild(struct lk_hcells *c, size_t cap, int halve)
{
	struct lk_hcell *old = c->slots;
	size_t n = c->cap;
	if (!(c->slots = table(cap))) {
		c->slots = old;
		return -ENOMEM;
	}
	c->cap = cap;
	c->n = 0;
	for (size_t i = 0; i < n; i++) {
		struct lk_hcell *o = &old[i];
		if (o->site == EMPTY)
			continue;
		struct lk_hcell x = *o;
		if (halve && x.a != LK_HCELL_BEFORE)
			x.a = lk_hcells_merged(x.a);
		if (halve && x.f != LK_HCELL_NEVER)
			x.f = lk_hcells_merged(x.f);
		put(c, &x);
	}
	free(old);
	return 0;
}

int lk_hcells_init(struct lk_hcells *c)
{
	memset(c, 0, sizeof(*c));
	c->cap = 1024;
	return (c->slots = table(c->cap)) ? 0 : -ENOMEM;
}

void lk_hcells_release(struct lk_hcells *c)
{
	free(c->slots);
	c->slots = NULL;
	c->cap = c->n = 0;
}

void lk_hcells_start(struct lk_hcells *c, uint64_t first)
{
	c->bound[0] = first;
}

int lk_hcells_clock(struct lk_hcells *c, const struct lk_sampler *s, uint64_t next)
{
	for (; c->gen < s->gen; c->gen++) {   /* intervals 2k-1 and 2k become k */
		uint32_t due = (c->due + 1) / 2;
		for (uint32_t k = 1; k <= due; k++)
			c->bound[k] = c->bound[2 * k - 1];
		c->due = due;
		int rc = rebuild(c, c->cap, 1);
		if (rc)
			return rc;
	}
	for (uint32_t j = c->due + 1; j <= s->due && j < LK_SAMPLER_POINTS + 2; j++)
		c->bound[j] = next;
	if (s->due > c->due)
		c->due = s->due;
	return 0;
}

/* The interval of allocation `number`: the last whose first number is not
 * above it (BEFORE: below the window's first). */
uint16_t lk_hcells_interval(const struct lk_hcells *c, uint64_t number)
{
	uint32_t lo = 0, hi = c->due;
	if (number < c->bound[0])
		return LK_HCELL_BEFORE;
	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;
		if (c->bound[mid] <= number)
			lo = mid;
		else
			hi = mid - 1;
	}
	return (uint16_t)lo;
}

int lk_hcells_add(struct lk_hcells *c, uint32_t site, uint64_t number, uint64_t size, int freed,
		  int temporary)
{
	if (2 * (c->n + 1) > c->cap) {
		int rc = rebuild(c, 2 * c->cap, 0);
		if (rc)
			return rc;
	}
	struct lk_hcell x = {site, lk_hcells_interval(c, number), freed ? (uint16_t)c->due : LK_HCELL_NEVER,
			     1, size, temporary != 0};
	put(c, &x);
	return 0;
}

static int by_key(const void *pa, const void *pb)
{
	const struct lk_hcell *a = pa, *b = pb;
	if (a->site != b->site)
		return a->site < b->site ? -1 : 1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->f > b->f) - (a->f < b->f);
}

void lk_hcells_sort(struct lk_hcells *c)
{
	size_t k = 0;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i].site != EMPTY)
			c->slots[k++] = c->slots[i];
	c->n = k;
	qsort(c->slots, k, sizeof(*c->slots), by_key);
}
