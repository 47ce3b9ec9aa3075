/*
 * timeline_test.c - band statistics (docs/timeline.md) against numbers
 * computed by hand, the same statistics from running sums (band_sums.h)
 * against the two-pass ones, and the ordering and release of a timeline.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/band_sums.h"
#include "analyze/timeline.h"
#include "tap.h"

static void test_line(void)
{
	/* v = 10 t on t = 0..3: area 5+15+25, mean 15, a perfect line */
	double t[] = {0, 1, 2, 3}, v[] = {0, 10, 20, 30};
	struct lk_band_stats s;
	lk_band_stats_compute(t, v, 4, &s);
	ok(near(s.integrated, 45), "line: integrated 45 (got %g)", s.integrated);
	ok(near(s.peak, 30), "line: peak 30");
	ok(near(s.mean, 15), "line: time-weighted mean 15 (got %g)", s.mean);
	/* segments around the mean (-15,-5) (-5,5) (5,15): (325+25+325)/3 / 3 = 75 */
	ok(near(s.stddev, sqrt(75.0)), "line: stddev sqrt(75) (got %g)", s.stddev);
	ok(near(s.slope, 10), "line: slope 10 (got %g)", s.slope);
	ok(fabs(s.intercept) < 1e-9, "line: intercept 0 (got %g)", s.intercept);
	ok(near(s.fit, 1), "line: fit 1 (got %g)", s.fit);
}

static void test_vee(void)
{
	/* (0,4) (1,0) (3,4): area 2 + 4 = 6 over 3 s, mean 2;
	 * squares (1*(4-4+4) + 2*(4-4+4))/3 = 4, /3 -> var 4/3;
	 * tmean 4/3, vmean 8/3, Stt 42/9, Stv 12/9, Svv 96/9:
	 * slope 2/7, intercept 16/7, R^2 = 144/(42*96) = 1/28 */
	double t[] = {0, 1, 3}, v[] = {4, 0, 4};
	struct lk_band_stats s;
	lk_band_stats_compute(t, v, 3, &s);
	ok(near(s.integrated, 6), "vee: integrated 6 (got %g)", s.integrated);
	ok(near(s.peak, 4), "vee: peak 4");
	ok(near(s.mean, 2), "vee: mean 2 (got %g)", s.mean);
	ok(near(s.stddev, sqrt(4.0 / 3)), "vee: stddev sqrt(4/3) (got %g)", s.stddev);
	ok(near(s.slope, 2.0 / 7), "vee: slope 2/7 (got %g)", s.slope);
	ok(near(s.intercept, 16.0 / 7), "vee: intercept 16/7 (got %g)", s.intercept);
	ok(near(s.fit, 1.0 / 28), "vee: fit 1/28 (got %g)", s.fit);
}

static void test_degenerate(void)
{
	struct lk_band_stats s;
	double t1[] = {2}, v1[] = {7};
	lk_band_stats_compute(t1, v1, 1, &s);
	ok(s.integrated == 0 && s.peak == 7 && s.mean == 7 && s.stddev == 0,
	   "one point: no area, peak = mean = value");
	ok(s.slope == 0 && s.intercept == 7 && s.fit == 0, "one point: flat line, fit 0");
	double t2[] = {1, 2}, v2[] = {5, 5};
	lk_band_stats_compute(t2, v2, 2, &s);
	ok(near(s.integrated, 5) && near(s.mean, 5) && s.stddev == 0, "constant: area 5, mean 5");
	ok(s.slope == 0 && near(s.intercept, 5) && s.fit == 0, "constant: slope 0, fit 0");
	double t3[] = {1, 1}, v3[] = {2, 4};
	lk_band_stats_compute(t3, v3, 2, &s);
	ok(s.integrated == 0 && near(s.mean, 3) && near(s.stddev, 1) && s.slope == 0,
	   "same instant: plain mean and stddev, no slope");
	lk_band_stats_compute(NULL, NULL, 0, &s);
	ok(s.peak == 0 && s.integrated == 0, "no points: zeros");
}

static char *dup(const char *s) { return strdup(s); }

static void test_finish_release(void)
{
	struct lk_timeline tl = {0};
	tl.n_samples = 3;
	tl.times = malloc(3 * sizeof(double));
	tl.times[0] = 0, tl.times[1] = 1, tl.times[2] = 2;
	tl.n_bands = 3;
	tl.bands = calloc(3, sizeof(*tl.bands));
	const char *ids[] = {"small", "big", "mid"};
	double vals[3][3] = {{1, 1, 1}, {0, 100, 200}, {10, 10, 10}};
	for (int i = 0; i < 3; i++) {
		tl.bands[i].id = dup(ids[i]);
		tl.bands[i].label = dup(ids[i]);
		tl.bands[i].values = malloc(3 * sizeof(double));
		memcpy(tl.bands[i].values, vals[i], sizeof(vals[i]));
	}
	tl.title = dup("t");
	tl.n_warnings = 1;
	tl.warnings = malloc(sizeof(char *));
	tl.warnings[0] = dup("w");
	lk_timeline_finish(&tl);
	ok(strcmp(tl.bands[0].id, "big") == 0 && strcmp(tl.bands[1].id, "mid") == 0 &&
	   strcmp(tl.bands[2].id, "small") == 0, "finish: sorted by integrated, descending");
	ok(near(tl.bands[0].stats.integrated, 200) && near(tl.bands[0].stats.slope, 100),
	   "finish: stats computed (big: area 200, slope 100)");
	lk_timeline_release(&tl);
	ok(tl.bands == NULL && tl.n_bands == 0 && tl.title == NULL, "release: zeroed");
	lk_timeline_release(&tl);
	ok(1, "release twice is harmless");
}

/* Statistics of v at times t from running sums, fed as a reader does: a
 * census adds only the bands that are not 0 there or were not before. */
static void sums_stats(const double *t, const double *v, size_t n, struct lk_band_stats *out)
{
	struct lk_band_table b = {0};
	*out = (struct lk_band_stats){0};
	if (lk_band_table_grow(&b, 1))
		return;
	for (size_t i = 0; i < n; i++) {
		if (v[i] != 0 || b.last[0] != 0)
			lk_band_table_add(&b, t[i], 0, v[i]);
		lk_band_table_census_done(&b, t[i]);
	}
	lk_band_table_stats(&b, 0, out);
	lk_band_table_release(&b);
}

static int stats_agree(const struct lk_band_stats *a, const struct lk_band_stats *b)
{
	/* 1e-9 of the band's size: rounding of the rearranged sums */
	double tol = 1e-9 * (1 + a->peak);
	return near(a->integrated, b->integrated) && a->peak == b->peak &&
	       fabs(a->mean - b->mean) <= tol && fabs(a->stddev - b->stddev) <= tol &&
	       fabs(a->slope - b->slope) <= tol && fabs(a->intercept - b->intercept) <= tol * 1e3 &&
	       fabs(a->fit - b->fit) <= 1e-9;
}

static void test_running_sums(void)
{
	double t[] = {0, 1, 3}, v[] = {4, 0, 4};
	struct lk_band_stats a, b;
	sums_stats(t, v, 3, &a);
	lk_band_stats_compute(t, v, 3, &b);
	ok(stats_agree(&a, &b) && near(a.fit, 1.0 / 28) && near(a.stddev, sqrt(4.0 / 3)),
	   "sums: the vee");
	double ct[] = {5, 5.5, 6, 7}, cv[] = {3e9, 3e9, 3e9, 3e9};
	sums_stats(ct, cv, 4, &a);
	ok(a.stddev == 0 && a.fit == 0 && a.slope == 0 && near(a.mean, 3e9),
	   "sums: a constant band of 3 GB: no spread, no fit (stddev %g, fit %g)", a.stddev, a.fit);
	double one[] = {7}, at[] = {2};
	sums_stats(at, one, 1, &a);
	ok(a.peak == 7 && a.mean == 7 && a.slope == 0 && a.intercept == 7, "sums: one point");

	/* random bands: gaps of zeros, growth, spikes; uneven times far from 0;
	 * one table, its censuses added whole or band by band in turn */
	enum { K = 200, N = 300 };
	static double rt[N], rv[K][N], row[K], x[K];
	struct lk_band_table tab = {0};
	if (lk_band_table_grow(&tab, K)) {
		ok(0, "sums: a table of %d bands", K);
		return;
	}
	int zeroed = 1;
	srand(7);
	double now = 1000 + rand() % 1000;
	for (int i = 0; i < N; i++) {
		now += (rand() % 100 + 1) / 100.0;
		rt[i] = now;
		for (int k = 0; k < K; k++) {
			rv[k][i] = rand() % 4 == 0 ? 0 : (double)(rand() % 100000) + i * (k % 7) * 1e6;
			x[k] = rv[k][i];
		}
		if (i % 3 == 0) {
			lk_band_table_add_all(&tab, now, x, row);
			for (int k = 0; k < K; k++)
				zeroed &= x[k] == 0;
		} else {
			for (int k = 0; k < K; k++)
				if (x[k] != 0 || tab.last[k] != 0)
					lk_band_table_add(&tab, now, (size_t)k, x[k]);
		}
		lk_band_table_census_done(&tab, now);
	}
	int agree = 1, same_row = 1;
	for (int k = 0; k < K; k++) {
		lk_band_table_stats(&tab, (size_t)k, &a);
		lk_band_stats_compute(rt, rv[k], N, &b);
		if (!stats_agree(&a, &b)) {
			agree = 0;
			printf("# band %d: sums %g %g %g %g %g, two-pass %g %g %g %g %g\n", k,
			       a.integrated, a.stddev, a.slope, a.intercept, a.fit, b.integrated,
			       b.stddev, b.slope, b.intercept, b.fit);
		}
		double whole = 0;
		for (int i = 0; i < N; i += 3)
			whole += rv[k][i];
		same_row &= row[k] == whole;
	}
	ok(agree, "sums: 200 random bands agree with the two-pass statistics");
	ok(zeroed && same_row, "sums: a census added whole leaves its values at 0, added to the row");
	lk_band_table_release(&tab);
}

int main(void)
{
	test_line();
	test_vee();
	test_degenerate();
	test_running_sums();
	test_finish_release();
	return tap_done();
}
