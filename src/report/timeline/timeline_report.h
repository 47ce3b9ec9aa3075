/*
 * timeline_report.h - text and JSON writers of a timeline (analyze/timeline.h)
 * and of a timeline diff (analyze/timeline_diff.h). The HTML writer is
 * report/html.h. Writers return 0 or a negative code (-EIO when the stream
 * failed); they never print anywhere but the given stream.
 */
#ifndef LK_REPORT_TIMELINE_REPORT_H
#define LK_REPORT_TIMELINE_REPORT_H

#include <stdio.h>

#include "analyze/timeline.h"
#include "analyze/timeline_diff.h"

#define LK_TIMELINE_SCHEMA "leakscope-timeline/2"
#define LK_TIMELINE_DIFF_SCHEMA "leakscope-timeline-diff/2"

/* Metadata, warnings, markers, then the top_n bands (all if top_n <= 0)
 * ranked by integrated size, with the detail columns when present. */
int lk_timeline_write_text(const struct lk_timeline *tl, FILE *out, int top_n);

/* Everything, schema "leakscope-timeline/2" (docs/json-timeline.md). */
int lk_timeline_write_json(const struct lk_timeline *tl, FILE *out);

/* GHC's .hp heap profile (timeline_hp.c), for hp2ps. 0 or -EIO. */
int lk_timeline_write_hp(const struct lk_timeline *tl, FILE *out);

/* Several timelines as one offline HTML page, a tab each, named names[i];
 * every page carries x's extra data (or NULL: none). 0, or a negative
 * errno (timeline_pages.c). */
struct lk_html_extra;
int lk_timeline_write_html_pages(const struct lk_timeline *tls, const char *const *names, size_t n,
				 const struct lk_html_extra *x, FILE *out);

/* Rows of the diff, largest change of integrated size first. */
int lk_timeline_diff_write_text(const struct lk_timeline_diff *d, FILE *out, int top_n);

/* Schema "leakscope-timeline-diff/2" (docs/json-timeline.md). */
int lk_timeline_diff_write_json(const struct lk_timeline_diff *d, FILE *out);

/* "12.3 MiB" for a byte count, in buf (at least 32 bytes). */
const char *lk_tltext_bytes(double bytes, char *buf, size_t size);

#endif
