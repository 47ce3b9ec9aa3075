/* sampler.c - bounded, lazily filled timelines (see sampler.h). */
#include <errno.h>
#include <stdlib.h>

#include "history/sampler.h"

void lk_sampler_init(struct lk_sampler *s)
{
	s->delta = 1;
	s->gen = 0;
	s->due = 0;
}

void lk_sampler_set_due(struct lk_sampler *s, uint64_t count)
{
	int doubled = 0;
	while (count > LK_SAMPLER_POINTS) {
		s->delta *= 2;
		s->gen++;
		count = (count + 1) / 2;   /* samples 0, 2D, 4D ... of the old clock */
		doubled = 1;
	}
	if (doubled || count > s->due)
		s->due = (uint32_t)count;
}

void lk_sampler_finish(struct lk_sampler *s, uint64_t t)
{
	uint64_t count = t / s->delta + 1;
	if (count > s->due)
		lk_sampler_set_due(s, count);
}

#define ROOM_STEP 64u  /* samples a buffer grows by */

/* The 0s a site's timeline ends with, once its blocks are gone, take no
 * room (CPython's report: 2,860 timelines, 46% of their samples such 0s). */
int lk_series_fill(const struct lk_sampler *s, struct lk_series_buf *b, double value)
{
	for (; b->gen < s->gen; b->gen++) {   /* every other sample goes */
		uint32_t n = (b->n + 1u) / 2;
		for (uint32_t i = 0; i < n; i++)
			b->v[i] = b->v[2 * i];
		b->n = (uint16_t)n;
		b->upto = (uint16_t)((b->upto + 1u) / 2);
	}
	if (value == 0) {
		b->upto = (uint16_t)s->due;
		return 0;
	}
	if (s->due > b->room) {
		uint32_t room = (s->due + ROOM_STEP - 1) / ROOM_STEP * ROOM_STEP;
		float *v = realloc(b->v, room * sizeof(*v));
		if (!v)
			return -ENOMEM;
		b->v = v;
		b->room = (uint16_t)room;
	}
	for (; b->n < b->upto; b->n++)
		b->v[b->n] = 0;
	for (; b->n < s->due; b->n++)
		b->v[b->n] = (float)value;
	b->upto = b->n;
	return 0;
}

void lk_series_release(struct lk_series_buf *b)
{
	free(b->v);
	*b = (struct lk_series_buf){0};
}
