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

void lk_band_sums_add(struct lk_band_sums *s, const struct lk_census_sums *c,
		      double t, double v)
{
	if (c->n > 0) {
		long double dt = (long double)t - c->t_prev, a = s->last, b = v;
		s->area2 += dt * (a + b);
		s->sq3 += dt * (a * a + a * b + b * b);
	}
	long double tr = c->n > 0 ? (long double)t - c->t0 : 0;
	s->sv += v;
	s->stv += tr * v;
	s->svv += (long double)v * v;
	if (v > s->peak)
		s->peak = v;
	s->last = v;
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
	long double n = (long double)c->n, span = (long double)c->t_prev - c->t0;
	long double vm = s->sv / n;
	out->peak = s->peak;
	long double area = s->area2 / 2, sq = s->sq3 / 3;
	out->integrated = (double)area;
	if (span > 0) {
		/* sum dt ((a-m)^2 + (a-m)(b-m) + (b-m)^2) / 3 = sq - area^2 / span */
		out->mean = (double)(area / span);
		out->stddev = (double)sqrtl(spread(sq, area * area / span) / span);
	} else {
		out->mean = (double)vm;
		out->stddev = (double)sqrtl(spread(s->svv, n * vm * vm) / n);
	}
	long double tm = c->st / n;
	long double stt = spread(c->stt, n * tm * tm);
	long double stv = s->stv - n * tm * vm;
	long double svv = spread(s->svv, n * vm * vm);
	if (c->n < 2 || stt <= 0) {
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
