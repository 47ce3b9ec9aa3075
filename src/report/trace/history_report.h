/*
 * history_report.h - writers of `leakscope report` (the analysis of a
 * trace, history/history.h) and of `leakscope diff` (history/diff.h):
 * text for a person, JSON for programs (docs/json-trace-report.md), and
 * the self-contained HTML page (report/html.h) with the leak tables and the
 * leak-candidate chart. Writers return 0 or a negative code (-EIO when the
 * stream failed, -ENOMEM); they print nowhere but the given stream.
 */
#ifndef LK_REPORT_HISTORY_REPORT_H
#define LK_REPORT_HISTORY_REPORT_H

#include <stdio.h>

#include "analyze/leaks.h"
#include "history/diff.h"
#include "history/history.h"
#include "report/text_style.h"

#define LK_TRACE_REPORT_SCHEMA "leakscope-trace-report/2"
#define LK_TRACE_DIFF_SCHEMA "leakscope-trace-diff/2"

struct lk_history_view {
	const char *trace;          /* the path, as given */
	int top;                    /* rows per list; <= 0: all */
	const struct lk_leak_report *leaks;  /* the leaks at the end, as `run` says
				     * them (history/verdicts.h); NULL when
				     * the window ends before the trace */
	int show_suppressed, show_reachable;  /* in text, as for `run` */
	const char *script;         /* in HTML: one more asset the page runs
				     * (report/html.h; NULL: none) */
	struct lk_text_style style; /* in text */
};

int lk_history_write_text(const struct lk_history *h, const struct lk_history_view *v, FILE *out);
int lk_history_write_json(const struct lk_history *h, const struct lk_history_view *v, FILE *out);
int lk_history_write_html(const struct lk_history *h, const struct lk_history_view *v, FILE *out);
/* Formats other tools read (docs/formats.md): a pprof profile
 * (history_pprof.c), folded stacks for flame graphs (report/folded.c: one
 * line per site, its value the number key ranks by) and a massif file
 * (history_massif.c). */
int lk_history_write_pprof(const struct lk_history *h, FILE *out);
int lk_history_write_folded(const struct lk_history *h, enum lk_hist_key key, FILE *out);
int lk_history_write_massif(const struct lk_history *h, FILE *out);

/* The page's flame graph data, ",\"flame\":{...}" (history_flame.c; used
 * by the HTML writer). */
int lk_history_flame_json(FILE *f, const struct lk_history *h);
/* The window's cells, ",\"cells\":{...}" (history_cells.c), when the
 * history kept them (opt.cells). */
int lk_history_cells_json(FILE *f, const struct lk_history *h);

int lk_tdiff_write_text(const struct lk_tdiff *d, int top, const struct lk_text_style *st,
			FILE *out);
int lk_tdiff_write_json(const struct lk_tdiff *d, FILE *out);
/* The self-contained page (tdiff_html.c, docs/html-report.md). */
int lk_tdiff_write_html(const struct lk_tdiff *d, FILE *out);

#endif
