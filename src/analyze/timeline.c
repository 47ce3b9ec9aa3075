/*
 * timeline.c - statistics, ordering and release of the timeline model
 * (timeline.h). The formulas are defined in docs/timeline.md; keep the two
 * in step. Pure computation: no I/O; the bands summed into "other" are
 * the only allocation, besides release.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/timeline.h"

static void free_strv(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void band_release(struct lk_band *b, size_t n_detail_columns)
{
	free(b->id);
	free(b->label);
	free(b->values);
	free_strv(b->details, n_detail_columns);
	for (size_t j = 0; j < b->n_frames; j++) {
		free(b->frames[j].function);
		free(b->frames[j].file);
		free(b->frames[j].module);
	}
	free(b->frames);
}

void lk_timeline_release(struct lk_timeline *tl)
{
	if (!tl)
		return;
	free(tl->title);
	for (size_t i = 0; i < tl->n_meta; i++) {
		free(tl->meta[i].key);
		free(tl->meta[i].value);
	}
	free(tl->meta);
	free(tl->times);
	for (size_t i = 0; i < tl->n_bands; i++)
		band_release(&tl->bands[i], tl->n_detail_columns);
	free(tl->bands);
	free_strv(tl->detail_columns, tl->n_detail_columns);
	for (size_t i = 0; i < tl->n_series; i++) {
		free(tl->series[i].name);
		free(tl->series[i].times);
		free(tl->series[i].values);
	}
	free(tl->series);
	for (size_t i = 0; i < tl->n_markers; i++)
		free(tl->markers[i].text);
	free(tl->markers);
	free_strv(tl->warnings, tl->n_warnings);
	*tl = (struct lk_timeline){0};
}

void lk_band_stats_compute(const double *t, const double *v, size_t n,
			   struct lk_band_stats *out)
{
	*out = (struct lk_band_stats){0};
	if (n == 0)
		return;
	/* first pass: peak, sums, the trapezoids' area (twice) */
	double peak = v[0], sum = v[0], tsum = t[0], area2 = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i] > peak)
			peak = v[i];
		sum += v[i];
		tsum += t[i];
		area2 += (t[i] - t[i - 1]) * (v[i] + v[i - 1]);
	}
	double area = area2 / 2, span = t[n - 1] - t[0];
	double amean = sum / (double)n, tmean = tsum / (double)n;
	double mean = span > 0 ? area / span : amean;
	out->peak = peak;
	out->integrated = area;
	out->mean = mean;

	/* second pass, centred: the time-weighted variance of the piecewise-
	 * linear curve (three times), the least squares of bytes against
	 * seconds */
	double sq3 = 0, stt = 0, stv = 0, svv = 0;
	for (size_t i = 0; i < n; i++) {
		double dt = t[i] - tmean, dv = v[i] - amean;
		stt += dt * dt;
		stv += dt * dv;
		svv += dv * dv;
		if (i > 0) {
			double a = v[i - 1] - mean, b = v[i] - mean;
			sq3 += (t[i] - t[i - 1]) * (a * a + a * b + b * b);
		}
	}
	out->stddev = span > 0 ? sqrt(sq3 > 0 ? sq3 / 3 / span : 0) : sqrt(svv / (double)n);
	if (n < 2 || stt <= 0) {
		out->intercept = amean;
		return;
	}
	out->slope = stv / stt;
	out->intercept = amean - out->slope * tmean;
	double r2 = svv > 0 ? (stv * stv) / (stt * svv) : 0;
	out->fit = r2 < 0 ? 0 : r2 > 1 ? 1 : r2;
}

int lk_band_order(const struct lk_band_stats *a, const char *ida, const struct lk_band_stats *b,
		  const char *idb)
{
	if (a->integrated != b->integrated)
		return a->integrated > b->integrated ? -1 : 1;
	if (a->peak != b->peak)
		return a->peak > b->peak ? -1 : 1;
	const char *x = ida ? ida : "", *y = idb ? idb : "";
	while (*x && *x == *y)
		x++, y++;
	return (unsigned char)*x - (unsigned char)*y;
}

static int by_integrated(const void *pa, const void *pb)
{
	const struct lk_band *a = pa, *b = pb;
	return lk_band_order(&a->stats, a->id, &b->stats, b->id);
}

void lk_timeline_sort(struct lk_timeline *tl)
{
	if (tl->n_bands > 1)
		qsort(tl->bands, tl->n_bands, sizeof(*tl->bands), by_integrated);
}

void lk_timeline_finish(struct lk_timeline *tl)
{
	for (size_t i = 0; i < tl->n_bands; i++)
		lk_band_stats_compute(tl->times, tl->bands[i].values, tl->n_samples,
				      &tl->bands[i].stats);
	lk_timeline_sort(tl);
}

int lk_timeline_keep_bands(struct lk_timeline *tl, size_t n)
{
	if (n == 0 || tl->n_bands <= n + 1)
		return 0; /* one band summed alone is no "other" */
	size_t rest = tl->n_bands - n;
	double *sum = calloc(tl->n_samples ? tl->n_samples : 1, sizeof(*sum));
	char *id = strdup("other"), label[64];
	snprintf(label, sizeof(label), "other (%zu bands)", rest);
	char *label_copy = strdup(label);
	if (!sum || !id || !label_copy) {
		free(sum);
		free(id);
		free(label_copy);
		return -ENOMEM;
	}
	for (size_t i = n; i < tl->n_bands; i++) {
		for (size_t j = 0; j < tl->n_samples; j++)
			sum[j] += tl->bands[i].values[j];
		band_release(&tl->bands[i], tl->n_detail_columns);
	}
	struct lk_band *o = &tl->bands[n];
	*o = (struct lk_band){.id = id, .label = label_copy, .values = sum};
	lk_band_stats_compute(tl->times, sum, tl->n_samples, &o->stats);
	tl->n_bands = n + 1;
	return 0;
}
