/*
 * band_sums.h - band statistics (struct lk_band_stats, docs/timeline.md)
 * from running sums, one census at a time in time order, without keeping
 * the values: what a reader uses when it keeps fewer points than censuses
 * (src/eventlog/profile.c). The formulas of lk_band_stats_compute()
 * rearranged into sums; the same results to rounding (the sums are long
 * double, fed by double partial sums of at most LK_BAND_SUMS_BLOCK
 * censuses: long double arithmetic on every census was a seventh of the
 * time of a large eventlog's report).
 *
 * Per census at time t: first lk_band_sums_add() for every band whose value
 * differs from 0 at t or at the census before (a band left out is 0 there,
 * and a run of zeros adds nothing), then lk_census_sums_add(t) once.
 */
#ifndef LK_ANALYZE_BAND_SUMS_H
#define LK_ANALYZE_BAND_SUMS_H

#include <stddef.h>

#include "analyze/timeline.h"

/* What all bands share: the census times. */
struct lk_census_sums {
	size_t n;             /* censuses so far */
	double t0, t_prev;    /* first and latest census time, seconds */
	long double st, stt;  /* sum of t - t0, of (t - t0)^2 */
};

#define LK_BAND_SUMS_BLOCK 64u

/* The sums of a band, in the order of struct lk_band_sums's arrays. */
enum { LK_BS_AREA2, LK_BS_SQ3, LK_BS_SV, LK_BS_STV, LK_BS_SVV, LK_BS_N };

/* One band; zero-initialised = 0 at every census so far. The sums are
 * sum dt (a + b), sum dt (a^2 + a b + b^2) over the intervals between
 * censuses (a, b the values at their ends), sum v, sum (t - t0) v and
 * sum v^2 over the censuses: `total` plus `part`, the part of the latest
 * `pending` censuses. */
struct lk_band_sums {
	double last;                /* value at the latest census */
	double peak;
	double part[LK_BS_N];
	unsigned pending;
	long double total[LK_BS_N];
};

/* Moves the part into the total (every LK_BAND_SUMS_BLOCK censuses). */
void lk_band_sums_flush(struct lk_band_sums *s);

/* The band's value v at the census at time t (not yet added to c).
 * Inline: a census's end calls it for each of its bands. */
static inline void lk_band_sums_add(struct lk_band_sums *s, const struct lk_census_sums *c,
				    double t, double v)
{
	if (c->n > 0) {
		double dt = t - c->t_prev, a = s->last;
		s->part[LK_BS_AREA2] += dt * (a + v);
		s->part[LK_BS_SQ3] += dt * (a * a + a * v + v * v);
	}
	double tr = c->n > 0 ? t - c->t0 : 0;
	s->part[LK_BS_SV] += v;
	s->part[LK_BS_STV] += tr * v;
	s->part[LK_BS_SVV] += v * v;
	if (v > s->peak)
		s->peak = v;
	s->last = v;
	if (++s->pending == LK_BAND_SUMS_BLOCK)
		lk_band_sums_flush(s);
}

/* The census at time t, after its bands; t must not be before c->t_prev. */
void lk_census_sums_add(struct lk_census_sums *c, double t);

void lk_band_sums_stats(const struct lk_band_sums *s, const struct lk_census_sums *c,
			struct lk_band_stats *out);

#endif
