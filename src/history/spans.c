/* spans.c - an even sample of the blocks that outlived their allocation's
 * sample interval (spans.h). */
#include <errno.h>
#include <stdlib.h>

#include "history/spans.h"

int lk_hspans_init(struct lk_hspans *s)
{
	s->n = 0;
	s->seen = 0;
	s->stride = 1;
	return (s->v = malloc(LK_HSPANS_MAX * sizeof(*s->v))) ? 0 : -ENOMEM;
}

void lk_hspans_release(struct lk_hspans *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* Span x's intervals in generation gen of the clock. */
static void merge(struct lk_hspan *x, uint32_t gen)
{
	for (; x->gen < gen; x->gen++) {
		if (x->a != LK_HCELL_BEFORE)
			x->a = lk_hcells_merged(x->a);
		if (x->f != LK_HCELL_NEVER)
			x->f = lk_hcells_merged(x->f);
	}
}

/* Bring every span to generation gen and drop those that no longer span. */
static void compact(struct lk_hspans *s, uint32_t gen)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		merge(&s->v[i], gen);
		if (s->v[i].a != s->v[i].f)
			s->v[k++] = s->v[i];
	}
	s->n = k;
}

void lk_hspans_add(struct lk_hspans *s, const struct lk_hcells *c, uint64_t number, uint64_t t,
		   uint64_t size, uint32_t site, int freed)
{
	uint16_t a = lk_hcells_interval(c, number), f = freed ? (uint16_t)c->due : LK_HCELL_NEVER;
	if (!s->v || a == LK_HCELL_BEFORE || a == f || s->seen++ % s->stride)
		return;
	if (s->n == LK_HSPANS_MAX) {
		compact(s, c->gen);
		if (s->n > LK_HSPANS_MAX / 4 * 3) {   /* too few merged: sample */
			size_t k = 0;
			for (size_t i = 0; i < s->n; i += 2)   /* every other one goes */
				s->v[k++] = s->v[i];
			s->n = k;
			s->stride *= 2;
			if ((s->seen - 1) % s->stride)
				return;
		}
	}
	s->v[s->n++] = (struct lk_hspan){t, size, site, c->gen, a, f};
}

static int by_time(const void *pa, const void *pb)
{
	const struct lk_hspan *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->site < b->site ? -1 : a->site > b->site;
}

void lk_hspans_settle(struct lk_hspans *s, const struct lk_hcells *c)
{
	if (!s->v)
		return;
	compact(s, c->gen);
	qsort(s->v, s->n, sizeof(*s->v), by_time);
}
