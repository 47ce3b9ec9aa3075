/*
 * band_sums.c - band statistics from running sums (band_sums.h). Keep in
 * step with lk_band_stats_compute() in timeline.c and docs/timeline.md.
 * Pure computation.
 */
#include <math.h>

#include "analyze/band_sums.h"

/* Differences of sums below this fraction of the sums they come from are
 * rounding, not variation: a constant band has no spread and no fit. */
#define ROUNDING 1e-12L

static void flush(long double total[LK_BS_N], const double part[LK_BS_N])
{
	for (int i = 0; i < LK_BS_N; i++)
		total[i] += part[i];
}

void lk_band_sums_flush(struct lk_band_sums *s)
{
	flush(s->total, s->part);
	for (int i = 0; i < LK_BS_N; i++)
		s->part[i] = 0;
	s->pending = 0;
}

void lk_census_sums_add(struct lk_census_sums *c, double t)
{
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

void lk_band_sums_stats(const struct lk_band_sums *s, const struct lk_census_sums *c,
			struct lk_band_stats *out)
{
	*out = (struct lk_band_stats){0};
	if (c->n == 0)
		return;
	long double sum[LK_BS_N];
	for (int i = 0; i < LK_BS_N; i++)
		sum[i] = s->total[i];
	flush(sum, s->part);
	long double n = (long double)c->n, span = (long double)c->t_prev - c->t0;
	long double vm = sum[LK_BS_SV] / n;
	out->peak = s->peak;
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
