/*
 * band_match.h - which band of one timeline is which band of another, for
 * timeline_diff. By id, except for bands named by an IPE entry (-hi: the id
 * is an info-table address, which another build of the program moves):
 * those are matched by what the entry says, tolerating the renamings and
 * moved lines of a slightly edited source (docs/eventlog.md, "Diff").
 */
#ifndef LK_ANALYZE_BAND_MATCH_H
#define LK_ANALYZE_BAND_MATCH_H

#include "analyze/timeline.h"

/* Fill match[i] (before->n_bands entries) with the index of the band of
 * after that is band i of before, or -1. Each after band is used at most
 * once. 0 or -ENOMEM. */
int lk_band_match(const struct lk_timeline *before, const struct lk_timeline *after,
		  long *match);

#endif
