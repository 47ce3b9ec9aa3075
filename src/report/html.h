/*
 * html.h - a timeline as one self-contained, offline HTML page.
 *
 * The page carries its CSS and JavaScript (src/report/assets/report.css,
 * report.js, embedded in the binary) and the data as one JSON document in
 * <script type="application/json" id="data">. It loads nothing from the
 * network (a Content-Security-Policy forbids it) and stays small on big
 * inputs: chart series are downsampled server-side to about
 * LK_HTML_CHART_POINTS points keeping each bucket's minimum and maximum,
 * only the LK_HTML_TOP_BANDS largest bands (by integrated size) are charted
 * band by band, the rest summed as OTHER, and every band gets a sparkline of
 * LK_HTML_SPARK_POINTS points for the detailed table. docs/html-report.md
 * tells what the page shows.
 */
#ifndef LK_REPORT_HTML_H
#define LK_REPORT_HTML_H

#include <stdio.h>

#include "analyze/timeline.h"

#define LK_HTML_TOP_BANDS 15     /* bands charted one by one; the rest is OTHER */
#define LK_HTML_CHART_POINTS 1000 /* at most this many points per chart series */
#define LK_HTML_SPARK_POINTS 60   /* points of each band's sparkline */

/*
 * Write the HTML report of tl to out. tl must be finished (bands sorted by
 * integrated size, stats computed); it is only read. Returns 0, or a
 * negative errno (-EIO when out reports a write error, -ENOMEM, -EINVAL when
 * an embedded asset is missing).
 */
int lk_timeline_write_html(const struct lk_timeline *tl, FILE *out);

/*
 * The same with more data for the page: x->write(out, x->arg) is called
 * inside the data object after its last member and writes further members
 * (",\"leaks\":..."; strings through lk_json_string). report.js draws
 * "leaks" and "candidates" when present (docs/html-report.md). x->script,
 * when set, names one more asset run after report.js (the live page of
 * `leakscope watch --serve`: live.js), and the page may then fetch from its
 * own server (connect-src 'self'); nothing else changes.
 */
struct lk_html_extra {
	int (*write)(FILE *out, void *arg);
	void *arg;
	const char *script;
};
int lk_timeline_write_html_extra(const struct lk_timeline *tl, const struct lk_html_extra *x,
				 FILE *out);

/* Frames as the page's stack arrays: [[function, file, line, module,
 * "0xOFFSET", inlined], ...] (report.js draws them on click). */
void lk_html_frames_json(FILE *f, const struct lk_frame_text *frames, size_t n);
/* One of them. */
void lk_html_frame_json(FILE *f, const struct lk_frame_text *fr);

/* The label of an allocation site: "function (file:line)" of its first
 * frame, "function", "module+0xOFFSET", or "site ID (no stack)"; a new
 * string or NULL. */
char *lk_html_site_label(const struct lk_frame_text *frames, size_t n, uint32_t id);

/* For the writers that build a page's timeline: a new string printed as
 * printf does (NULL when out of memory), and a metadata line key: value
 * added to tl->meta, which has room for it (value is taken; 0 or -ENOMEM,
 * value freed then). */
char *lk_html_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
int lk_html_meta(struct lk_timeline *tl, const char *key, char *value);

#endif
