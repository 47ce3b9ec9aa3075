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
#include "cli/suppressions_load.h"
#include "common/error.h"
#include "history/verdicts.h"
#include "report/trace/history_report.h"

enum {
	OPT_COST = LK_CLI_LONG, OPT_FROM, OPT_TO, OPT_SIZE, OPT_SUP, OPT_NO_DEF_SUP,
	OPT_SHOW_SUP, OPT_SHOW_REACH,
};

static const struct lk_cli_opt options[] = {
	LK_CLI_OPT_FORMAT("text|json|html|pprof|folded|massif", "text (default), json, html (a self-contained\n"
			  "page, written to TRACE.html unless -o says\n"
			  "otherwise), pprof (a profile for 'go tool pprof',\n"
			  "written to TRACE.pb unless -o says otherwise),\n"
			  "folded (stacks for flamegraph.pl, inferno,\n"
			  "speedscope) or massif (for ms_print and\n"
			  "massif-visualizer)"),
	{"cost", OPT_COST, "leaked|live|peak|allocations|allocated|temporary", "folded: the value of each stack: leaked (bytes\n"
	 "not freed in the window; default), live (bytes\n"
	 "live at the end), peak (bytes live at the peak),\n"
	 "allocations, allocated (bytes), temporary\n"
	 "(allocations)"},
	LK_CLI_OPT_OUTPUT("write the report to FILE ('-': standard output)"),
	{"from", OPT_FROM, "X", "the window starts at X (default: the start)"},
	{"to", OPT_TO, "Y", "the window ends at Y (default: the end of the\n"
	 "trace). X, Y: seconds (12.5 or 12.5s, also ms,\n"
	 "us, min), a marker text or a snapshot name (the\n"
	 "first of either with that text); mark:TEXT,\n"
	 "snapshot:NAME, time:S say which"},
	{"size", OPT_SIZE, "N|MIN-MAX", "only blocks of N bytes in every list; MIN-MAX\n"
	 "a range"},
	LK_CLI_OPT_TOP("rows per list (default 10; 0 = all)"),
	{"suppressions", OPT_SUP, "FILE", "leak:PATTERN lines (LeakSanitizer syntax) for the\n"
	 "leaks at the end; repeatable"},
	{"no-default-suppressions", OPT_NO_DEF_SUP, NULL,
	 "do not apply the built-in suppressions\n(docs/suppressions.md)"},
	{"show-reachable", OPT_SHOW_REACH, NULL, "list the still-reachable blocks at the end too"},
	{"show-suppressed", OPT_SHOW_SUP, NULL, "list the suppressed leaks at the end"},
	LK_CLI_OPT_FULL_STACKS,
	LK_CLI_OPT_COLOR,
	LK_CLI_OPT_QUIET,
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_report = {
	.name = "report",
	.summary = "report on a trace: peak, leaks of a window, growing sites",
	.synopsis = "[OPTIONS] TRACE",
	.about =
	"Report on a trace written by 'leakscope record': summary (allocations,\n"
	"peak live bytes and when, RSS peak); the leaks, as 'leakscope run'\n"
	"reports them: the blocks allocated in the window and not freed when the\n"
	"process ended, grouped by allocation stack and by the verdict of the\n"
	"scan made then (definitely, indirectly, possibly lost, still\n"
	"reachable; 'not freed', and why, in a trace without verdicts), with the\n"
	"same suppressions; with --to before the end, the blocks not freed by\n"
	"then, with their first and last allocation times; what was live at the\n"
	"peak, temporary allocations, top sites, and sites whose live bytes grow\n"
	"(slope, fit, bytes per marker interval).\n",
	.opts = options,
	.notes =
	"exit status: 0 (also for a truncated trace, reported with a warning);\n"
	"1 the trace cannot be read, a point is not in it, or the output cannot\n"
	"be written; 2 usage error.\n",
};

/* in the order of the choices of -f and --cost */
enum format { FMT_TEXT, FMT_JSON, FMT_HTML, FMT_PPROF, FMT_FOLDED, FMT_MASSIF };
static const enum lk_hist_key cost_keys[] = {
	LK_HIST_BY_LEAK, LK_HIST_BY_LIVE, LK_HIST_BY_PEAK,
	LK_HIST_BY_ALLOCS, LK_HIST_BY_BYTES, LK_HIST_BY_TEMPORARIES,
};

struct output {
	enum format fmt;
	int color;                 /* --color's choice */
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
	o->view.style.color = lk_cli_color(o->color, lk_cli_out_fd());
	return lk_history_write_text(o->h, &o->view, out);
}

int cmd_report(int argc, char **argv)
{
	enum format fmt = FMT_TEXT;
	const char *out_path = NULL;
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	int top = 10, cost_given = 0, c, k, builtin = 1;
	const char *files[LK_CLI_SUPPRESSION_FILES];
	size_t n_files = 0;
	long n;
	enum lk_hist_key cost = LK_HIST_BY_LEAK;
	struct lk_cli_parser p;
	int o_show_sup = 0, o_show_reach = 0, full = 0, color = LK_CLI_COLOR_AUTO;

	lk_cli_parse_init(&p, &lk_cli_report, argc, argv);
	while ((c = lk_cli_next(&p)) > 0) {
		switch (c) {
		case 'f':
			if ((k = lk_cli_choice(&p)) < 0)
				return p.status;
			fmt = (enum format)k;
			break;
		case OPT_COST:
			if ((k = lk_cli_choice(&p)) < 0)
				return p.status;
			cost = cost_keys[k];
			cost_given = 1;
			break;
		case 'o': out_path = p.value; break;
		case LK_CLI_TOP:
			if ((n = lk_cli_number(&p, 0, 1000000000)) < 0)
				return p.status;
			top = (int)n;
			break;
		case OPT_FROM:
		case OPT_TO:
			if (lk_point_parse(p.value, c == OPT_FROM ? &opt.from : &opt.to))
				return lk_cli_usage_error("report", "%s", lk_error_detail());
			break;
		case OPT_SIZE:
			if (lk_cli_parse_size(p.value, &opt.size_min, &opt.size_max))
				return lk_cli_usage_error("report", "--size wants N or MIN-MAX bytes, "
							  "not '%s'", p.value);
			break;
		case OPT_SUP:
			if (n_files == LK_CLI_SUPPRESSION_FILES)
				return lk_cli_usage_error("report", "too many --suppressions files");
			files[n_files++] = p.value;
			break;
		case OPT_NO_DEF_SUP: builtin = 0; break;
		case OPT_SHOW_SUP: o_show_sup = 1; break;
		case OPT_SHOW_REACH: o_show_reach = 1; break;
		case LK_CLI_FULL_STACKS: full = 1; break;
		case LK_CLI_COLOR:
			if ((color = lk_cli_choice(&p)) < 0)
				return p.status;
			break;
		}
	}
	if (c == LK_CLI_STOP)
		return p.status;
	if (p.n_args == 0)
		return lk_cli_usage_error("report", "no trace given");
	if (p.n_args > 1)
		return lk_cli_usage_error("report", "more than one trace: '%s'", p.args[1]);
	if (cost_given && fmt != FMT_FOLDED)
		return lk_cli_usage_error("report", "--cost goes with --format folded");
	const char *input = p.args[0];

	struct lk_suppressions sup;
	lk_suppressions_init(&sup);
	struct lk_history h;
	opt.cells = fmt == FMT_HTML;   /* the page's window analysis */
	if (lk_cli_load_suppressions(&sup, builtin, files, n_files) ||
	    lk_cli_load_history(input, &opt, &h)) {
		lk_suppressions_release(&sup);
		return 1;
	}
	struct output o = {.fmt = fmt, .cost = cost, .h = &h, .color = color,
			   .view = {.trace = input, .top = top, .show_suppressed = o_show_sup,
				    .show_reachable = o_show_reach, .style.full_stacks = full}};
	struct lk_leak_report leaks = {0};
	if (lk_history_verdicts_apply(&h)) {
		/* the page lists every group: it shows the reachable ones on demand */
		if (lk_history_leaks(&h, &sup, o_show_reach || fmt == FMT_HTML, &leaks)) {
			lk_cli_error("report: out of memory");
			lk_suppressions_release(&sup);
			lk_history_release(&h);
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
