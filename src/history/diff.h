/*
 * diff.h - what changed per allocation site between two points: of one
 * trace (exact per block: added = live at B and not at A, removed = live at
 * A and not at B), or of two traces (sites matched by their symbolized
 * stack - function, file, line, module of every frame - and the difference
 * of their live bytes and objects).
 *
 * A diff borrows the frames of the histories it was made from: keep them
 * until lk_tdiff_release().
 */
#ifndef LK_HISTORY_DIFF_H
#define LK_HISTORY_DIFF_H

#include "history/history.h"

struct lk_tdiff_row {
	const struct lk_frame_text *frames;
	size_t n_frames;
	uint32_t site_a, site_b;        /* stack ids (UINT32_MAX: absent) */
	uint64_t bytes_a, objects_a;    /* live at A */
	uint64_t bytes_b, objects_b;    /* live at B */
	uint64_t added_bytes, added_objects;
	uint64_t removed_bytes, removed_objects;
};

struct lk_tdiff {
	int exact;                      /* 1: one trace, per block */
	const char *a, *b;              /* the points as given */
	double t_a, t_b;                /* seconds in their traces */
	uint64_t ns_a, ns_b;            /* the same in nanoseconds */
	struct lk_tdiff_row *rows;      /* largest |added - removed| bytes first */
	size_t n_rows;
	uint64_t added_bytes, added_objects, removed_bytes, removed_objects;
	uint64_t bytes_a, bytes_b;
	uint64_t objects_a, objects_b;
	/* each point's trace up to it: its peak (peak_t in ns), allocations,
	 * bytes allocated, temporary allocations */
	struct lk_hist_totals side_a, side_b;
};

/* h was read with from = A (from_after) and to = B. */
int lk_tdiff_within(const struct lk_history *h, struct lk_tdiff *d);

/* a and b were read with to = their point (from = the start). */
int lk_tdiff_between(const struct lk_history *a, const struct lk_history *b, struct lk_tdiff *d);

void lk_tdiff_release(struct lk_tdiff *d);

#endif
