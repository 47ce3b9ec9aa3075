/*
 * cmd_report.c - `leakscope report`: the analysis of a trace (summary,
 * peak, leaks of a window, temporaries, top and growing sites, leak
 * candidates) as text, JSON or a self-contained HTML page, or in the
 * formats of other tools: pprof, folded stacks (docs/formats.md).
 *
 * Exit status: 0 (also for a truncated trace, reported with a warning),
 * 1 when the trace cannot be read or a point is not in it, or the output
 * cannot be written, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/history_load.h"
#include "history/verdicts.h"
#include "common/error.h"
#include "report/history_report.h"

static const char usage[] =
	"usage: leakscope report [--format text|json|html|pprof|folded|massif] [-o FILE]\n"
	"                        [--from X] [--to Y] [--size N|MIN-MAX] [--top N]\n"
	"                        [--cost KIND] TRACE\n"
	"\n"
	"Report on a trace written by 'leakscope record': summary (allocations,\n"
	"peak live bytes and when, RSS peak), what was live at the peak, blocks\n"
	"allocated in a window and not freed by its end (grouped by allocation\n"
	"stack, with their first and last allocation times), temporary\n"
	"allocations, top sites, and sites whose live bytes grow (slope, fit,\n"
	"bytes per marker interval).\n"
	"\n"
	"  --format F     text (default), json, html (a self-contained page,\n"
	"                 written to TRACE.html unless -o says otherwise),\n"
	"                 pprof (a profile for 'go tool pprof', written to\n"
	"                 TRACE.pb unless -o says otherwise), folded (stacks\n"
	"                 for flamegraph.pl, inferno, speedscope) or massif (for\n"
	"                 ms_print and massif-visualizer)\n"
	"  --cost KIND    folded: the value of each stack: leaked (bytes not\n"
	"                 freed in the window; default), live (bytes live at the\n"
	"                 end), peak (bytes live at the peak), allocations,\n"
	"                 allocated (bytes), temporary (allocations)\n"
	"  -o FILE        write there ('-' = standard output)\n"
	"  --from X       the window starts at X (default: the start)\n"
	"  --to Y         the window ends at Y (default: the end of the trace)\n"
	"                 X, Y: seconds (12.5 or 12.5s, also ms, us, min), a marker\n"
	"                 text or a snapshot name (the first of either with that\n"
	"                 text); mark:TEXT, snapshot:NAME, time:S say which\n"
	"  --size N       only blocks of N bytes in every list; MIN-MAX a range\n"
	"  --top N        rows per list (default 10; 0 = all)\n"
	"  -h, --help     show this help\n";

enum format { FMT_TEXT, FMT_JSON, FMT_HTML, FMT_PPROF, FMT_FOLDED, FMT_MASSIF };
static const char *const format_names[] = {
	"text", "json", "html", "pprof", "folded", "massif", NULL,
};

static const char *const cost_names[] = {
	"leaked", "live", "peak", "allocations", "allocated", "temporary", NULL,
};
static const enum lk_hist_key cost_keys[] = {
	LK_HIST_BY_LEAK, LK_HIST_BY_LIVE, LK_HIST_BY_PEAK,
	LK_HIST_BY_ALLOCS, LK_HIST_BY_BYTES, LK_HIST_BY_TEMPORARIES,
};

static int usage_error(const char *fmt, const char *arg)
{
	return lk_cli_usage_error("report", fmt, arg);
}

struct output {
	enum format fmt;
	enum lk_hist_key cost;
	struct lk_history *h;
	struct lk_history_view view;
};

static int write_report(FILE *out, void *arg)
{
	struct output *o = arg;
	switch (o->fmt) {
	case FMT_JSON: return lk_history_write_json(o->h, &o->view, out);
	case FMT_HTML: return lk_history_write_html(o->h, &o->view, out);
	case FMT_PPROF: return lk_history_write_pprof(o->h, out);
	case FMT_FOLDED: return lk_history_write_folded(o->h, o->cost, out);
	case FMT_MASSIF: return lk_history_write_massif(o->h, out);
	case FMT_TEXT: break;
	}
	return lk_history_write_text(o->h, &o->view, out);
}

int cmd_report(int argc, char **argv)
{
	enum format fmt = FMT_TEXT;
	const char *out_path = NULL, *input = NULL, *v;
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	int top = 10, only_files = 0, cost_given = 0;
	enum lk_hist_key cost = LK_HIST_BY_LEAK;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int missing = 0, taken;
		if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
			if (input)
				return usage_error("more than one trace: '%s'", a);
			input = a;
		} else if (strcmp(a, "--") == 0) {
			only_files = 1;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if ((v = lk_cli_value(argc, argv, &i, "--format", &missing))) {
			int k = lk_cli_choice(v, format_names);
			if (k < 0)
				return usage_error("unknown format '%s' (text, json, html, pprof, folded or massif)", v);
			fmt = (enum format)k;
		} else if ((v = lk_cli_value(argc, argv, &i, "--cost", &missing))) {
			int k = lk_cli_choice(v, cost_names);
			if (k < 0)
				return usage_error("unknown cost '%s' (leaked, live, peak, allocations, "
						   "allocated or temporary)", v);
			cost = cost_keys[k];
			cost_given = 1;
		} else if ((taken = lk_cli_output_option("report", argc, argv, &i, &out_path, &top,
							 &missing))) {
			if (taken == 2)
				return 2;
		} else if ((v = lk_cli_value(argc, argv, &i, "--from", &missing)) ||
			   (v = lk_cli_value(argc, argv, &i, "--to", &missing))) {
			struct lk_point *p = strncmp(a, "--from", 6) == 0 ? &opt.from : &opt.to;
			if (lk_point_parse(v, p))
				return usage_error("%s", lk_error_detail());
		} else if ((v = lk_cli_value(argc, argv, &i, "--size", &missing))) {
			if (lk_cli_parse_size(v, &opt.size_min, &opt.size_max))
				return usage_error("--size wants N or MIN-MAX bytes, not '%s'", v);
		} else if (missing) {
			return usage_error("%s needs a value", a);
		} else {
			return usage_error("unknown option '%s'", a);
		}
	}
	if (!input)
		return usage_error("%s", "no trace given");
	if (cost_given && fmt != FMT_FOLDED)
		return usage_error("%s", "--cost goes with --format folded");

	struct lk_history h;
	if (lk_cli_load_history(input, &opt, &h))
		return 1;
	struct output o = {.fmt = fmt, .cost = cost, .h = &h, .view = {.trace = input, .top = top}};
	struct lk_suppressions sup;
	struct lk_leak_report leaks = {0};
	lk_suppressions_init(&sup);
	if (lk_history_verdicts_apply(&h)) {
		if (lk_suppressions_add_builtin(&sup) || lk_history_leaks(&h, &sup, fmt == FMT_HTML, &leaks)) {
			lk_cli_error("report: out of memory");
			return 1;
		}
		o.view.leaks = &leaks;
	}
	const char *suffix = fmt == FMT_HTML ? ".html" : fmt == FMT_PPROF ? ".pb" : NULL;
	int status = lk_cli_write_report(input, out_path, suffix, write_report, &o);
	if (LK_CLI_FREE_AT_EXIT) {
		lk_leak_report_release(&leaks);
		lk_suppressions_release(&sup);
		lk_history_release(&h);
	}
	return status;
}
