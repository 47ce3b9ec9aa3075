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
	uint64_t delta;     /* ticks between samples, a power of two */
	uint32_t gen;       /* doublings so far */
	uint32_t due;       /* samples strictly before the current time */
};

struct lk_series_buf {
	float *v;           /* LK_SAMPLER_POINTS values, allocated on first use */
	uint32_t n;         /* samples filled */
	uint32_t gen;       /* the clock's gen when last brought up to date */
};

void lk_sampler_init(struct lk_sampler *s);

/* The clock reaches time t (ticks, non-decreasing): samples at times < t
 * become due. */
void lk_sampler_advance(struct lk_sampler *s, uint64_t t);

/* The clock's end: every sample at a time <= t becomes due. */
void lk_sampler_finish(struct lk_sampler *s, uint64_t t);

/* Fill the due samples of b with value (its value until now). 0 or -ENOMEM. */
int lk_series_catch_up(const struct lk_sampler *s, struct lk_series_buf *b, double value);

void lk_series_release(struct lk_series_buf *b);

#endif
