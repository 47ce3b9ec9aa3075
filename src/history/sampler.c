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

int lk_series_fill(const struct lk_sampler *s, struct lk_series_buf *b, double value)
{
	if (!b->v) {
		/* every sample so far is 0: no buffer until another value */
		for (; b->gen < s->gen; b->gen++)
			b->n = (b->n + 1) / 2;
		if (value == 0) {
			b->n = s->due;
			return 0;
		}
		b->v = malloc(LK_SAMPLER_POINTS * sizeof(*b->v));
		if (!b->v)
			return -ENOMEM;
		for (uint32_t i = 0; i < b->n; i++)
			b->v[i] = 0;
	}
	for (; b->gen < s->gen; b->gen++) {
		uint32_t n = (b->n + 1) / 2;
		for (uint32_t i = 0; i < n; i++)
			b->v[i] = b->v[2 * i];
		b->n = n;
	}
	for (; b->n < s->due; b->n++)
		b->v[b->n] = (float)value;
	return 0;
}

void lk_series_release(struct lk_series_buf *b)
{
	free(b->v);
	b->v = NULL;
	b->n = 0;
}
