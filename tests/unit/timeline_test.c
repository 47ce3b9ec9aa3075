/*
 * timeline_test.c - band statistics (docs/timeline.md) against numbers
 * computed by hand, and the ordering and release of a timeline.
 */
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	test_line();
	test_vee();
	test_degenerate();
	test_finish_release();
	return tap_done();
}
