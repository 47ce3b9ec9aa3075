/*
 * cmd_eventlog.c - `leakscope eventlog`: render a GHC eventlog heap profile
 * (text, JSON, or the self-contained HTML report), or compare two of them.
 *
 * The edge of the program: the only file of the eventlog feature that
 * prints to stderr and chooses exit codes (0 ok, also for a truncated file,
 * which is reported as a warning; 1 unreadable input or failed output;
 * 2 usage).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/timeline_diff.h"
#include "cli/cli.h"
#include "common/error.h"
#include "eventlog/profile.h"
#include "report/timeline_report.h"

#include "report/html.h"

static const char usage[] =
	"usage: leakscope eventlog [--format text|json|html|hp] [-o FILE] [--top N]\n"
	"                          [--messages] FILE.eventlog\n"
	"       leakscope eventlog [--format text|json] [-o FILE] [--top N]\n"
	"                          --diff BEFORE.eventlog AFTER.eventlog\n"
	"\n"
	"Render the heap profile of a GHC eventlog (a program built with\n"
	"-eventlog -rtsopts, run with +RTS -l -hT|-hi|-hc... -i0.1): bands\n"
	"ranked by integrated size with their growth (slope, fit), heap size,\n"
	"live bytes and markers.\n"
	"\n"
	"  --format F     html (default, written to FILE.eventlog.html), text, json,\n"
	"                 or hp (GHC's .hp heap profile for hp2ps, written to\n"
	"                 FILE.eventlog.hp)\n"
	"  -o FILE        write there ('-' = standard output)\n"
	"  --top N        text: show the N largest bands only (default 20; 0 = all)\n"
	"  --messages     also show traceEvent messages as markers\n"
	"  --diff B A     compare two eventlogs band by band (text or json)\n"
	"  -h, --help     show this help\n";

enum format { FMT_HTML, FMT_TEXT, FMT_JSON, FMT_HP };
static const char *const format_names[] = {"html", "text", "json", "hp", NULL};

static int usage_error(const char *fmt, const char *arg)
{
	return lk_cli_usage_error("eventlog", fmt, arg);
}

/* Read path into *tl; print what went wrong. 0 or 1 (the exit code). */
static int load(const char *path, const struct lk_profile_options *opt, struct lk_timeline *tl)
{
	FILE *f = lk_cli_open_in(path, LK_FILE_PIPE);
	if (!f)
		return 1;
	struct lk_profile_stats st;
	int rc = lk_profile_read(f, opt, tl, &st);
	if (lk_cli_close_in(f, path)) {   /* an endless pipe: not all of it read */
		if (rc >= 0)
			lk_timeline_release(tl);
		return 1;
	}
	if (rc < 0) {
		lk_cli_error("cannot read '%s': %s", path,
			*lk_error_detail() && rc != -ENOMEM ? lk_error_detail() : lk_error_name(rc));
		return 1;
	}
	for (size_t i = 0; i < tl->n_warnings; i++) {
		if (i == 0 && st.data_error)
			lk_cli_error("cannot read '%s': %s; the report shows what was read before",
				     path, tl->warnings[i]);
		else
			lk_cli_error("warning: '%s': %s", path, tl->warnings[i]);
	}
	if (!tl->title) {
		const char *base = strrchr(path, '/');
		tl->title = strdup(base ? base + 1 : path);
	}
	return 0;
}

static int run_diff(const char *a, const char *b, enum format fmt, const char *out_path,
		    int top, const struct lk_profile_options *opt)
{
	struct lk_timeline ta, tb;
	struct lk_timeline_diff d;
	if (load(a, opt, &ta))
		return 1;
	if (load(b, opt, &tb)) {
		lk_timeline_release(&ta);
		return 1;
	}
	int rc = lk_timeline_diff_compute(&ta, &tb, &d);
	int status = 1;
	if (rc) {
		lk_cli_error("cannot compare: %s", lk_error_name(rc));
	} else {
		FILE *out = lk_cli_open_out(out_path);
		if (out) {
			rc = fmt == FMT_JSON ? lk_timeline_diff_write_json(&d, out)
					     : lk_timeline_diff_write_text(&d, out, top);
			status = lk_cli_close_out(out, rc);
		}
		lk_timeline_diff_release(&d);
	}
	lk_timeline_release(&ta);
	lk_timeline_release(&tb);
	return status;
}

struct output {
	enum format fmt;
	const struct lk_timeline *tl;
	int top;
};

static int write_report(FILE *out, void *arg)
{
	const struct output *o = arg;
	switch (o->fmt) {
	case FMT_JSON: return lk_timeline_write_json(o->tl, out);
	case FMT_TEXT: return lk_timeline_write_text(o->tl, out, o->top);
	case FMT_HP: return lk_timeline_write_hp(o->tl, out);
	case FMT_HTML: break;
	}
	return lk_timeline_write_html(o->tl, out);
}

int cmd_eventlog(int argc, char **argv)
{
	enum format fmt = FMT_HTML;
	int fmt_given = 0, top = 20;
	const char *out_path = NULL, *input = NULL, *diff_a = NULL, *diff_b = NULL;
	struct lk_profile_options opt = {0};
	int only_files = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int missing = 0, taken;
		if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
			if (input)
				return usage_error("more than one input file: '%s'", a);
			input = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_files = 1;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(a, "--messages") == 0) {
			opt.messages = 1;
		} else if (strcmp(a, "--diff") == 0) {
			if (i + 2 >= argc)
				return usage_error("%s needs two eventlogs", a);
			diff_a = argv[++i];
			diff_b = argv[++i];
		} else if ((v = lk_cli_value(argc, argv, &i, "--format", &missing))) {
			int k = lk_cli_choice(v, format_names);
			if (k < 0)
				return usage_error("unknown format '%s' (text, json, html or hp)", v);
			fmt = (enum format)k;
			fmt_given = 1;
		} else if ((taken = lk_cli_output_option("eventlog", argc, argv, &i, &out_path, &top,
							 &missing))) {
			if (taken == 2)
				return 2;
		} else if (missing) {
			return usage_error("%s needs a value", a);
		} else {
			return usage_error("unknown option '%s'", a);
		}
	}

	if (diff_a) {
		if (input)
			return usage_error("--diff takes its two files, not '%s'", input);
		if ((fmt == FMT_HTML && fmt_given) || fmt == FMT_HP)
			return usage_error("%s: --diff writes text or json", fmt == FMT_HP ? "hp" : "html");
		return run_diff(diff_a, diff_b, fmt_given ? fmt : FMT_TEXT, out_path, top, &opt);
	}
	if (!input)
		return usage_error("%s", "no eventlog given");

	struct lk_timeline tl;
	if (load(input, &opt, &tl))
		return 1;
	struct output o = {.fmt = fmt, .tl = &tl, .top = top};
	int status = lk_cli_write_report(input, out_path,
					 fmt == FMT_HTML ? ".html" : fmt == FMT_HP ? ".hp" : NULL,
					 write_report, &o);
	if (LK_CLI_FREE_AT_EXIT)
		lk_timeline_release(&tl);
	return status;
}
