/*
 * timeline.h - the one timeline model: bands x samples, series, markers.
 *
 * Both sources of "what was live when" produce it: GHC eventlog heap
 * profiles (src/eventlog/) and native recordings (per allocation site live
 * bytes, src/analyze/). One renderer per output format consumes it
 * (src/report/). A band is one breakdown key (closure type, info table,
 * allocation site); its values are bytes live at each sample time.
 *
 * Ownership: a timeline owns every string and array reachable from it;
 * lk_timeline_release() frees them all.
 */
#ifndef LK_ANALYZE_TIMELINE_H
#define LK_ANALYZE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

/* Least-squares and summary statistics of one band (docs/timeline.md). */
struct lk_band_stats {
	double integrated; /* area under the curve, byte-seconds (trapezoids) */
	double peak;       /* max bytes */
	double mean;       /* time-weighted mean bytes */
	double stddev;     /* time-weighted standard deviation, bytes */
	double intercept;  /* bytes at t = 0 of the fitted line */
	double slope;      /* bytes per second of the fitted line */
	double fit;        /* coefficient of determination R^2, 0..1 */
};

/* One frame of a native allocation stack, as shown to a person. */
struct lk_frame_text {
	char *function;    /* demangled; NULL if unknown */
	char *file;        /* NULL if no debug info */
	int line;
	char *module;      /* basename of the ELF object */
	char *module_path; /* its full path where known (suppressions match it), or NULL */
	uint64_t offset;   /* offset in the module, shown when no symbol */
	int inlined;       /* 1: inlined into the next frame */
};

struct lk_band {
	char *id;          /* stable key: "0x40a740", "THUNK_2_0", "site 17" */
	char *label;       /* what a person reads */
	double *values;    /* n_samples bytes, 0 where absent */
	struct lk_band_stats stats;
	char **details;    /* n_detail_columns strings (may be NULL entries) */
	struct lk_frame_text *frames; /* native bands: allocation stack */
	size_t n_frames;
};

struct lk_series {
	char *name;        /* "heap size", "live bytes", "blocks size", "rss" */
	size_t n;
	double *times;     /* seconds since start */
	double *values;    /* bytes */
};

struct lk_marker {
	double t;          /* seconds since start */
	char *text;
};

struct lk_meta {
	char *key;         /* "program", "rts", "start", "breakdown", ... */
	char *value;       /* as shown: "0.05 s" */
	const char *name;  /* its JSON key when not key ("sampling_interval_ns"); static */
	int numeric;       /* 1: its JSON value is num, not value */
	int64_t num;
};

struct lk_timeline {
	char *title;
	struct lk_meta *meta;
	size_t n_meta;
	double *times;           /* n_samples sample times, ascending */
	size_t n_samples;
	struct lk_band *bands;   /* sorted by stats.integrated, descending */
	size_t n_bands;
	char **detail_columns;   /* names of lk_band.details columns */
	size_t n_detail_columns;
	struct lk_series *series;
	size_t n_series;
	struct lk_marker *markers;
	size_t n_markers;
	char **warnings;         /* e.g. "truncated at offset 123 ..." */
	size_t n_warnings;
};

void lk_timeline_release(struct lk_timeline *tl);

/* Compute stats of every band and sort bands by integrated size. */
void lk_timeline_finish(struct lk_timeline *tl);

/* Sort bands by integrated size, their stats already set. */
void lk_timeline_sort(struct lk_timeline *tl);

/* The order of lk_timeline_sort: <0 if the band of statistics a and id
 * ida (NULL: "") comes before that of b and idb. Larger integrated size
 * first, then larger peak, then id as text (reproducible ties). */
int lk_band_order(const struct lk_band_stats *a, const char *ida, const struct lk_band_stats *b,
		  const char *idb);

/* Keep the n largest bands (tl sorted) and sum the others into one band,
 * "other (K bands)", placed last; n == 0 keeps them all. 0, or -ENOMEM. */
int lk_timeline_keep_bands(struct lk_timeline *tl, size_t n);

/* Statistics of values sampled at times (n points). */
void lk_band_stats_compute(const double *times, const double *values, size_t n,
			   struct lk_band_stats *out);

#endif
