/*
 * band_sums.h - band statistics (struct lk_band_stats, docs/timeline.md)
 * from running sums, one census at a time in time order, without keeping
 * the values: what a reader uses when it keeps fewer points than censuses
 * (src/eventlog/census.c). The formulas of lk_band_stats_compute()
 * rearranged into sums; the same results to rounding (the sums are long
 * double, fed by double partial sums of at most 2 x LK_BAND_SUMS_BLOCK
 * censuses: long double arithmetic on every census was a seventh of the
 * time of a large eventlog's report).
 *
 * The sums of all bands are kept side by side, one array a sum (a table),
 * so that a census that mentions most bands is added in one pass over
 * them that the compiler vectorises; a census that mentions few adds them
 * one by one. Adding 0 to a band that was 0 at the census before changes
 * none of its sums, so a band left out of a census need not be visited.
 *
 * Per census at time t: lk_band_table_add_all() with every band's value,
 * or lk_band_table_add() for every band whose value differs from 0 at t or
 * at the census before; then lk_band_table_census_done(t) once.
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

/* A band's sums are sum dt (a + b), sum dt (a^2 + a b + b^2) over the
 * intervals between censuses (a, b the values at their ends), sum v,
 * sum (t - t0) v and sum v^2 over the censuses. */
enum { LK_BS_AREA2, LK_BS_SQ3, LK_BS_SV, LK_BS_STV, LK_BS_SVV, LK_BS_N };

/* The sums of bands [0, n), zero-initialised = no band and no census.
 * Each sum is `total` plus `part`, the part of the band's latest
 * `pending` additions one by one and of the latest `pending_all` censuses
 * added whole (each part is moved into the total when either count
 * reaches LK_BAND_SUMS_BLOCK). Owns its arrays. */
struct lk_band_table {
	size_t n, cap;
	unsigned pending_all;
	unsigned *pending;
	double *last;                  /* value at the latest census */
	double *peak;
	double *part[LK_BS_N];
	long double *total[LK_BS_N];
	struct lk_census_sums times;   /* of the censuses done */
};

/* Bands [n, n_bands) added, 0 at every census so far. 0 or -ENOMEM. */
int lk_band_table_grow(struct lk_band_table *b, size_t n_bands);

/* Every band 0 at no census, as if none had been added. */
void lk_band_table_reset(struct lk_band_table *b);

/* Moves band k's part into its total. */
void lk_band_table_flush(struct lk_band_table *b, size_t k);

/* Band k's value v at the census at time t (the one under way).
 * Inline: a census's end calls it for each of its bands. */
static inline void lk_band_table_add(struct lk_band_table *b, double t, size_t k, double v)
{
	const struct lk_census_sums *c = &b->times;
	double a = b->last[k];
	if (c->n > 0) {
		double dt = t - c->t_prev;
		b->part[LK_BS_AREA2][k] += dt * (a + v);
		b->part[LK_BS_SQ3][k] += dt * (a * a + a * v + v * v);
	}
	double tr = c->n > 0 ? t - c->t0 : 0;
	b->part[LK_BS_SV][k] += v;
	b->part[LK_BS_STV][k] += tr * v;
	b->part[LK_BS_SVV][k] += v * v;
	b->peak[k] = v > b->peak[k] ? v : b->peak[k];
	b->last[k] = v;
	if (++b->pending[k] == LK_BAND_SUMS_BLOCK)
		lk_band_table_flush(b, k);
}

/* Every band's value at the census at time t: v[k] for k < n, which is
 * then set to 0 (v is ready for the next census); row, unless NULL, gets
 * v[k] added to its row[k]. */
void lk_band_table_add_all(struct lk_band_table *b, double t, double *v, double *row);

/* The census at time t has all its bands; t not before the one before. */
void lk_band_table_census_done(struct lk_band_table *b, double t);

/* Statistics of band k over the censuses done (all 0 for a band beyond n). */
void lk_band_table_stats(const struct lk_band_table *b, size_t k, struct lk_band_stats *out);

void lk_band_table_release(struct lk_band_table *b);

#endif
