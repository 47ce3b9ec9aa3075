/*
 * sampler.h - bounded timelines built while a trace streams by.
 *
 * One clock (struct lk_sampler) says which sample times exist: 0, D, 2D
 * ... with at most LK_SAMPLER_POINTS of them up to the current time. When
 * time runs past the last one, D doubles and every other sample goes (the
 * kept samples are those at multiples of the new D). Each series (a site's
 * live bytes, the total, RSS) is brought up to date lazily, only when its
 * value is about to change: the samples since its last change take its
 * current value, and a series that missed doublings is thinned then. So
 * an event costs O(1) amortized, and memory is LK_SAMPLER_POINTS floats
 * per series whatever the length of the trace.
 *
 * Sample j is the value after every event at time <= j * D.
 */
#ifndef LK_HISTORY_SAMPLER_H
#define LK_HISTORY_SAMPLER_H

#include <stdint.h>

#define LK_SAMPLER_POINTS 256u

struct lk_sampler {
	uint64_t delta;     /* ticks between samples, 2^gen */
	uint32_t gen;       /* doublings so far */
	uint32_t due;       /* samples strictly before the current time */
};

struct lk_series_buf {
	float *v;           /* samples [0, n), room for `room` of them: made
			     * for the first that is not 0 (NULL: every
			     * sample is 0) and grown as later ones come */
	uint16_t n;
	uint16_t upto;      /* samples up to date: n of them in v, then 0s */
	uint16_t room;
	uint8_t gen;        /* the clock's gen when last brought up to date */
};

void lk_sampler_init(struct lk_sampler *s);

/* count samples are due: the slow path of lk_sampler_advance. */
void lk_sampler_set_due(struct lk_sampler *s, uint64_t count);

/* The clock reaches time t (ticks, non-decreasing): samples at times < t
 * become due. (Inline, as lk_series_catch_up's test: once per event.) */
static inline void lk_sampler_advance(struct lk_sampler *s, uint64_t t)
{
	/* samples j with j * delta < t (delta = 2^gen: no division) */
	uint64_t count = t == 0 ? 0 : ((t - 1) >> s->gen) + 1;
	if (count > s->due)
		lk_sampler_set_due(s, count);
}

/* The clock's end: every sample at a time <= t becomes due. */
void lk_sampler_finish(struct lk_sampler *s, uint64_t t);

/* The slow path of lk_series_catch_up. */
int lk_series_fill(const struct lk_sampler *s, struct lk_series_buf *b, double value);

/* Fill the due samples of b with value (its value until now). 0 or -ENOMEM. */
static inline int lk_series_catch_up(const struct lk_sampler *s, struct lk_series_buf *b,
				     double value)
{
	if (b->upto >= s->due && b->gen == s->gen)
		return 0;
	return lk_series_fill(s, b, value);
}

void lk_series_release(struct lk_series_buf *b);

#endif
