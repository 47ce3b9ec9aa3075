/*
 * timeline_fixture.h - build struct lk_timeline values in tests.
 *
 * Header-only and static on purpose: the tests that use it (unit tests,
 * tests/browser/gen_fixture.c) must not depend on src/analyze/timeline.c,
 * and must not clash with it once it is in libcore.a. The statistics here
 * follow docs/timeline.md closely enough for rendering tests; they are not
 * the reference implementation.
 */
#ifndef LK_TESTS_TIMELINE_FIXTURE_H
#define LK_TESTS_TIMELINE_FIXTURE_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/timeline.h"

static void *fx_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p) {
		perror("calloc");
		exit(99);
	}
	return p;
}

static char *fx_str(const char *s)
{
	return s ? strcpy(fx_alloc(strlen(s) + 1), s) : NULL;
}

static char *fx_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *fx_fmt(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return fx_str(buf);
}

/* Trapezoid integral, time-weighted mean/stddev, least-squares line. */
static void fx_stats(const double *t, const double *v, size_t n, struct lk_band_stats *o)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, area = 0, area2 = 0, span;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		if (v[i] > o->peak)
			o->peak = v[i];
		sx += t[i]; sy += v[i]; sxx += t[i] * t[i]; sxy += t[i] * v[i]; syy += v[i] * v[i];
		if (i) {
			double dt = t[i] - t[i - 1];
			area += (v[i] + v[i - 1]) / 2 * dt;
			area2 += (v[i] * v[i] + v[i - 1] * v[i - 1]) / 2 * dt;
		}
	}
	o->integrated = area;
	span = n > 1 ? t[n - 1] - t[0] : 0;
	o->mean = span > 0 ? area / span : (n ? v[0] : 0);
	o->stddev = span > 0 ? sqrt(fmax(0, area2 / span - o->mean * o->mean)) : 0;
	if (n > 1) {
		double dx = n * sxx - sx * sx, dy = n * syy - sy * sy;
		o->slope = dx != 0 ? (n * sxy - sx * sy) / dx : 0;
		o->intercept = (sy - o->slope * sx) / n;
		o->fit = dx != 0 && dy > 0 ? pow(n * sxy - sx * sy, 2) / (dx * dy) : 0;
	} else {
		o->intercept = n ? v[0] : 0;
	}
}

static int fx_cmp_band(const void *a, const void *b)
{
	double x = ((const struct lk_band *)a)->stats.integrated;
	double y = ((const struct lk_band *)b)->stats.integrated;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Stats of every band, bands sorted by integrated size (descending). */
static void fx_finish(struct lk_timeline *tl)
{
	for (size_t b = 0; b < tl->n_bands; b++)
		fx_stats(tl->times, tl->bands[b].values, tl->n_samples, &tl->bands[b].stats);
	qsort(tl->bands, tl->n_bands, sizeof(*tl->bands), fx_cmp_band);
}

/* Free what the fixture built. shared_values: band values point into
 * arrays the caller frees (big synthetic timelines share a few patterns). */
static void fx_free(struct lk_timeline *tl, int shared_values)
{
	for (size_t i = 0; i < tl->n_meta; i++) {
		free(tl->meta[i].key);
		free(tl->meta[i].value);
	}
	for (size_t b = 0; b < tl->n_bands; b++) {
		struct lk_band *bd = &tl->bands[b];
		free(bd->id);
		free(bd->label);
		if (!shared_values)
			free(bd->values);
		for (size_t c = 0; bd->details && c < tl->n_detail_columns; c++)
			free(bd->details[c]);
		free(bd->details);
		for (size_t f = 0; f < bd->n_frames; f++) {
			free(bd->frames[f].function);
			free(bd->frames[f].file);
			free(bd->frames[f].module);
		}
		free(bd->frames);
	}
	for (size_t c = 0; c < tl->n_detail_columns; c++)
		free(tl->detail_columns[c]);
	for (size_t s = 0; s < tl->n_series; s++) {
		free(tl->series[s].name);
		free(tl->series[s].times);
		free(tl->series[s].values);
	}
	for (size_t m = 0; m < tl->n_markers; m++)
		free(tl->markers[m].text);
	for (size_t w = 0; w < tl->n_warnings; w++)
		free(tl->warnings[w]);
	free(tl->title);
	free(tl->meta);
	free(tl->times);
	free(tl->bands);
	free(tl->detail_columns);
	free(tl->series);
	free(tl->markers);
	free(tl->warnings);
	memset(tl, 0, sizeof(*tl));
}

/*
 * A synthetic profile of n_bands x n_samples: 64 shared value patterns
 * (flat, growing, saw-tooth, bursts), IPE-like detail columns, three
 * series, markers every tenth of the run. Band values are shared: free
 * with fx_free(tl, 1) and then free(*patterns).
 */
static void fx_big(struct lk_timeline *tl, size_t n_bands, size_t n_samples, double **patterns)
{
	enum { NPAT = 64 };
	double *pat = fx_alloc(sizeof(double) * NPAT * n_samples);
	struct lk_band_stats st[NPAT];
	static const char *cols[] = { "description", "closure type", "type", "module", "location" };

	memset(tl, 0, sizeof(*tl));
	tl->title = fx_str("big synthetic profile");
	tl->n_samples = n_samples;
	tl->times = fx_alloc(sizeof(double) * n_samples);
	for (size_t i = 0; i < n_samples; i++)
		tl->times[i] = 0.1 * (double)i;
	for (int p = 0; p < NPAT; p++) {
		double *v = pat + (size_t)p * n_samples, scale = 4096.0 * (NPAT - p);
		for (size_t i = 0; i < n_samples; i++) {
			double x = (double)i / (double)n_samples;
			switch (p % 4) {
			case 0: v[i] = scale; break;
			case 1: v[i] = scale * x * 2; break;
			case 2: v[i] = scale * (1 + ((i / 50) % 2)); break;
			default: v[i] = scale * (1 + sin(x * 20 + p)); break;
			}
		}
		fx_stats(tl->times, v, n_samples, &st[p]);
	}
	tl->n_meta = 3;
	tl->meta = fx_alloc(sizeof(*tl->meta) * 3);
	tl->meta[0].key = fx_str("program");   tl->meta[0].value = fx_str("big-synthetic");
	tl->meta[1].key = fx_str("breakdown"); tl->meta[1].value = fx_str("info table (-hi)");
	tl->meta[2].key = fx_str("interval");  tl->meta[2].value = fx_str("0.1 s");
	tl->n_detail_columns = 5;
	tl->detail_columns = fx_alloc(sizeof(char *) * 5);
	for (int c = 0; c < 5; c++)
		tl->detail_columns[c] = fx_str(cols[c]);
	tl->n_bands = n_bands;
	tl->bands = fx_alloc(sizeof(*tl->bands) * n_bands);
	for (size_t b = 0; b < n_bands; b++) {
		struct lk_band *bd = &tl->bands[b];
		int p = (int)(b % NPAT);
		bd->id = fx_fmt("0x%zx", 0x400000 + b * 0x40);
		bd->label = fx_fmt("Data.Map.Internal.Bin_%zu", b);
		bd->values = pat + (size_t)p * n_samples;
		bd->stats = st[p];
		bd->stats.integrated /= 1.0 + (double)b / NPAT; /* keep the order */
		bd->details = fx_alloc(sizeof(char *) * 5);
		bd->details[0] = fx_fmt("Bin_%zu", b);
		bd->details[1] = fx_str(p % 2 ? "THUNK" : "CONSTR_2_0");
		bd->details[2] = fx_str("Map Key Value");
		bd->details[3] = fx_fmt("App.Module%zu", b % 97);
		bd->details[4] = fx_fmt("src/App/Module%zu.hs:%zu:5-20", b % 97, b % 500);
	}
	tl->n_series = 3;
	tl->series = fx_alloc(sizeof(*tl->series) * 3);
	for (int s = 0; s < 3; s++) {
		struct lk_series *se = &tl->series[s];
		se->name = fx_str(s == 0 ? "heap size" : s == 1 ? "blocks size" : "live bytes");
		se->n = n_samples;
		se->times = fx_alloc(sizeof(double) * n_samples);
		se->values = fx_alloc(sizeof(double) * n_samples);
		for (size_t i = 0; i < n_samples; i++) {
			se->times[i] = tl->times[i];
			se->values[i] = (3 - s) * 1e7 * (1 + (double)i / n_samples) + (i % 7) * 1e5;
		}
	}
	tl->n_markers = 10;
	tl->markers = fx_alloc(sizeof(*tl->markers) * 10);
	for (int m = 0; m < 10; m++) {
		tl->markers[m].t = tl->times[n_samples - 1] * m / 10;
		tl->markers[m].text = fx_fmt("phase %d", m);
	}
	*patterns = pat;
}

#endif
