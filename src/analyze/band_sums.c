/*
 * band_sums.c - band statistics from running sums (band_sums.h). Keep in
 * step with lk_band_stats_compute() in timeline.c and docs/timeline.md.
 * Pure computation.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/band_sums.h"
#include "common/array.h"

/* Differences of sums below this fraction of the sums they come from are
 * rounding, not variation: a constant band has no spread and no fit. */
#define ROUNDING 1e-12L

int lk_band_table_grow(struct lk_band_table *b, size_t n_bands)
{
	if (n_bands > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		while (cap < n_bands)
			cap *= 2;
		int rc = lk_array_grow_zeroed(&b->last, sizeof(double), b->cap, cap) ||
			 lk_array_grow_zeroed(&b->peak, sizeof(double), b->cap, cap) ||
			 lk_array_grow_zeroed(&b->pending, sizeof(unsigned), b->cap, cap);
		for (int i = 0; i < LK_BS_N && !rc; i++)
			rc = lk_array_grow_zeroed(&b->part[i], sizeof(double), b->cap, cap) ||
			     lk_array_grow_zeroed(&b->total[i], sizeof(long double), b->cap, cap);
		if (rc)   /* the arrays grown so far keep their old size's worth */
			return -ENOMEM;
		b->cap = cap;
	}
	if (n_bands > b->n)
		b->n = n_bands;
	return 0;
}

void lk_band_table_reset(struct lk_band_table *b)
{
	b->pending_all = 0;
	b->times = (struct lk_census_sums){0};
	if (b->n == 0)   /* no arrays yet */
		return;
	memset(b->last, 0, b->n * sizeof(double));
	memset(b->peak, 0, b->n * sizeof(double));
	memset(b->pending, 0, b->n * sizeof(unsigned));
	for (int i = 0; i < LK_BS_N; i++) {
		memset(b->part[i], 0, b->n * sizeof(double));
		memset(b->total[i], 0, b->n * sizeof(long double));
	}
}

void lk_band_table_flush(struct lk_band_table *b, size_t k)
{
	for (int i = 0; i < LK_BS_N; i++) {
		b->total[i][k] += b->part[i][k];
		b->part[i][k] = 0;
	}
	b->pending[k] = 0;
}

static void flush_all(struct lk_band_table *b)
{
	b->pending_all = 0;
	if (b->n == 0)   /* no arrays yet */
		return;
	for (int i = 0; i < LK_BS_N; i++) {
		for (size_t k = 0; k < b->n; k++)
			b->total[i][k] += b->part[i][k];
		memset(b->part[i], 0, b->n * sizeof(double));
	}
	memset(b->pending, 0, b->n * sizeof(unsigned));
}

/* lk_band_table_add() of every band, written for the vectoriser: no
 * branch in the loop, arrays that do not overlap. */
static void add_all(size_t n, double dt, double tr, double *restrict v, double *restrict last,
		    double *restrict peak, double *restrict area2, double *restrict sq3,
		    double *restrict sv, double *restrict stv, double *restrict svv)
{
	for (size_t k = 0; k < n; k++) {
		double a = last[k], x = v[k];
		area2[k] += dt * (a + x);
		sq3[k] += dt * (a * a + a * x + x * x);
		sv[k] += x;
		stv[k] += tr * x;
		svv[k] += x * x;
		peak[k] = x > peak[k] ? x : peak[k];
		last[k] = x;
		v[k] = 0;
	}
}

static void add_to_row(size_t n, const double *restrict v, double *restrict row)
{
	for (size_t k = 0; k < n; k++)
		row[k] += v[k];
}

void lk_band_table_add_all(struct lk_band_table *b, double t, double *v, double *row)
{
	const struct lk_census_sums *c = &b->times;
	/* the first census: no interval before it (dt 0 adds exact zeros) */
	double dt = c->n > 0 ? t - c->t_prev : 0, tr = c->n > 0 ? t - c->t0 : 0;
	if (row)
		add_to_row(b->n, v, row);
	add_all(b->n, dt, tr, v, b->last, b->peak, b->part[LK_BS_AREA2], b->part[LK_BS_SQ3],
		b->part[LK_BS_SV], b->part[LK_BS_STV], b->part[LK_BS_SVV]);
	if (++b->pending_all == LK_BAND_SUMS_BLOCK)
		flush_all(b);
}

void lk_band_table_census_done(struct lk_band_table *b, double t)
{
	struct lk_census_sums *c = &b->times;
	if (c->n == 0)
		c->t0 = t;
	long double tr = (long double)t - c->t0;
	c->st += tr;
	c->stt += tr * tr;
	c->t_prev = t;
	c->n++;
}

/* a - b, or 0 when it is within rounding of a */
static long double spread(long double a, long double b)
{
	long double d = a - b;
	return d > a * ROUNDING ? d : 0;
}

void lk_band_table_stats(const struct lk_band_table *b, size_t k, struct lk_band_stats *out)
{
	const struct lk_census_sums *c = &b->times;
	*out = (struct lk_band_stats){0};
	if (c->n == 0 || k >= b->n)
		return;
	long double sum[LK_BS_N];
	for (int i = 0; i < LK_BS_N; i++)
		sum[i] = b->total[i][k] + b->part[i][k];
	long double n = (long double)c->n, span = (long double)c->t_prev - c->t0;
	long double vm = sum[LK_BS_SV] / n;
	out->peak = b->peak[k];
	long double area = sum[LK_BS_AREA2] / 2, sq = sum[LK_BS_SQ3] / 3;
	out->integrated = (double)area;
	if (span > 0) {
		/* sum dt ((a-m)^2 + (a-m)(b-m) + (b-m)^2) / 3 = sq - area^2 / span */
		out->mean = (double)(area / span);
		out->stddev = (double)sqrtl(spread(sq, area * area / span) / span);
	} else {
		out->mean = (double)vm;
		out->stddev = (double)sqrtl(spread(sum[LK_BS_SVV], n * vm * vm) / n);
	}
	long double tm = c->st / n;
	long double stt = spread(c->stt, n * tm * tm);
	long double stv = sum[LK_BS_STV] - n * tm * vm;
	long double svv = spread(sum[LK_BS_SVV], n * vm * vm);
	if (c->n < 2 || stt <= 0 || svv <= 0) {   /* no time span, or a constant */
		out->intercept = (double)vm;
		return;
	}
	long double slope = stv / stt;
	out->slope = (double)slope;
	/* the line in absolute time: v = vm + slope (t - t0 - tm) */
	out->intercept = (double)(vm - slope * (tm + c->t0));
	long double r2 = svv > 0 ? stv * stv / (stt * svv) : 0;
	out->fit = (double)(r2 < 0 ? 0 : r2 > 1 ? 1 : r2);
}

void lk_band_table_release(struct lk_band_table *b)
{
	free(b->last);
	free(b->peak);
	free(b->pending);
	for (int i = 0; i < LK_BS_N; i++) {
		free(b->part[i]);
		free(b->total[i]);
	}
	*b = (struct lk_band_table){0};
}
