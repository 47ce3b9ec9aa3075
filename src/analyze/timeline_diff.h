/*
 * timeline_diff.h - compare two timelines band by band (matched on band id,
 * or for -hi bands on their IPE entry: band_match.h):
 * before/after statistics, and the bands present on one side only. Used to
 * check that a fix removed a growing band (leakscope eventlog --diff).
 */
#ifndef LK_ANALYZE_TIMELINE_DIFF_H
#define LK_ANALYZE_TIMELINE_DIFF_H

#include "analyze/timeline.h"

enum lk_diff_side {
	LK_DIFF_BOTH = 0,
	LK_DIFF_BEFORE_ONLY = -1,  /* removed */
	LK_DIFF_AFTER_ONLY = 1,    /* added */
};

struct lk_diff_row {
	char *id;                     /* of the before band, if any */
	char *label;
	char *after_id, *after_label; /* the after band's, when they differ; else NULL */
	enum lk_diff_side side;
	struct lk_band_stats before;  /* zero when side == LK_DIFF_AFTER_ONLY */
	struct lk_band_stats after;   /* zero when side == LK_DIFF_BEFORE_ONLY */
};

struct lk_timeline_diff {
	char *before_title, *after_title;
	struct lk_diff_row *rows;     /* by |after.integrated - before.integrated| desc */
	size_t n_rows;
};

/* Fill *d (owned by the caller, free with lk_timeline_diff_release).
 * 0 or -ENOMEM. The timelines must be finished (lk_timeline_finish). */
int lk_timeline_diff_compute(const struct lk_timeline *before,
			     const struct lk_timeline *after, struct lk_timeline_diff *d);

void lk_timeline_diff_release(struct lk_timeline_diff *d);

#endif
