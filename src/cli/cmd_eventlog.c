/*
 * cmd_eventlog.c - `leakscope eventlog`: render a GHC heap profile, from an
 * eventlog or a .hp file (told apart by their first byte), as text, JSON,
 * the self-contained HTML report or a .hp file, or compare two of them.
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
#include "eventlog/hp.h"
#include "eventlog/profile.h"
#include "report/timeline/timeline_report.h"

#include "report/html.h"
#include "report/json.h"

enum { OPT_MESSAGES = LK_CLI_LONG, OPT_DIFF, OPT_BINARY, OPT_BANDS, OPT_Y_AXIS };

static const struct lk_cli_opt options[] = {
	LK_CLI_OPT_FORMAT("html|text|json|hp", "html (default, written to FILE.eventlog.html,\n"
			  "FILE.hp.html), text, json, or hp (GHC's .hp heap\n"
			  "profile for hp2ps, written to FILE.eventlog.hp)"),
	LK_CLI_OPT_OUTPUT("write the report to FILE ('-': standard output)"),
	LK_CLI_OPT_TOP("text: show the N largest bands only (default 20;\n"
		       "0 = all)"),
	{"bands", OPT_BANDS, "N", "keep the N largest bands and sum the others into\n"
	 "one, 'other' (every format; default 0: keep all)"},
	{"y-axis", OPT_Y_AXIS, "TEXT", "html: the label of the charts' byte axis"},
	{"messages", OPT_MESSAGES, NULL, "also show traceEvent messages as markers"},
	{"binary", OPT_BINARY, "FILE", "-hi: name the info tables without an IPE entry\n"
	 "from FILE's symbols (default: the program's own\n"
	 "path in the eventlog, if that file exists)"},
	{"diff", OPT_DIFF, NULL, "compare two heap profiles (eventlogs or .hp\n"
	 "files), BEFORE and AFTER, band by band (text or json)"},
	LK_CLI_OPT_QUIET,
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_eventlog = {
	.name = "eventlog",
	.summary = "report on a GHC heap profile (eventlog or .hp file)",
	.synopsis = "[OPTIONS] FILE.eventlog|FILE.hp\n"
		    "[OPTIONS] -o PAGE.html FILE.eventlog|FILE.hp...\n"
		    "[OPTIONS] --diff BEFORE AFTER",
	.about =
	"Render the heap profile of a GHC eventlog (a program built with\n"
	"-eventlog -rtsopts, run with +RTS -l -hT|-hi|-hc... -i0.1), or of the\n"
	".hp file that +RTS -h... writes without -l: bands ranked by\n"
	"integrated size with their growth (slope, fit), heap size, live bytes\n"
	"and markers. Several inputs make one HTML page, a tab each.\n",
	.opts = options,
	.notes =
	"An input is a regular file or a pipe (read once, in order): a .hp\n"
	"file if it begins with JOB, else an eventlog. A .hp file has no heap\n"
	"size or live bytes series, its markers (MARK) no text, and its times\n"
	"are those GHC writes there.\n"
	"\n"
	"exit status: 0 (also for a truncated input, reported with a warning);\n"
	"1 an input cannot be read or the output cannot be written; 2 usage error.\n",
};

enum format { FMT_HTML, FMT_TEXT, FMT_JSON, FMT_HP };   /* in the order of -f's choices */

/* Read path into *tl; print what went wrong. 0 or 1 (the exit code). */
static int load(const char *path, const struct lk_profile_options *opt, struct lk_timeline *tl)
{
	FILE *f = lk_cli_open_in(path, LK_FILE_PIPE);
	if (!f)
		return 1;
	struct lk_profile_stats st;
	int rc = lk_hp_sniff(f) ? lk_hp_read(f, tl, &st) : lk_profile_read(f, opt, tl, &st);
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
	const struct lk_timeline *tl;   /* n of them: several make one HTML page */
	const char *const *names;
	size_t n;
	int top;
	const char *y_axis;   /* or NULL */
};

/* The page's "y_axis" member (report.js labels the byte axis with it). */
static int write_y_axis(FILE *out, void *arg)
{
	fputs(",\"y_axis\":", out);
	lk_json_string(out, arg);
	return 0;
}

static int write_report(FILE *out, void *arg)
{
	const struct output *o = arg;
	switch (o->fmt) {
	case FMT_JSON: return lk_timeline_write_json(o->tl, out);
	case FMT_TEXT: return lk_timeline_write_text(o->tl, out, o->top);
	case FMT_HP: return lk_timeline_write_hp(o->tl, out);
	case FMT_HTML: break;
	}
	struct lk_html_extra x = {.write = write_y_axis, .arg = (void *)o->y_axis};
	if (o->n > 1)
		return lk_timeline_write_html_pages(o->tl, o->names, o->n, o->y_axis ? &x : NULL,
						    out);
	if (!o->y_axis)
		return lk_timeline_write_html(o->tl, out);
	return lk_timeline_write_html_extra(o->tl, &x, out);
}

/* Every input, its bands cut to the largest bands (0: all): 0, or 1 after
 * a message (the timelines read so far are in tls, zeroed past them). */
static int load_all(char *const *inputs, size_t n, const struct lk_profile_options *opt,
		    size_t bands, struct lk_timeline *tls)
{
	for (size_t i = 0; i < n; i++) {
		if (load(inputs[i], opt, &tls[i])) {
			memset(&tls[i], 0, sizeof(tls[i])); /* load released what it could */
			return 1;
		}
		if (lk_timeline_keep_bands(&tls[i], bands)) {
			lk_cli_error("eventlog: out of memory");
			return 1;
		}
	}
	return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
	return lk_cli_usage_error("eventlog", fmt, arg);
}

int cmd_eventlog(int argc, char **argv)
{
	enum format fmt = FMT_HTML;
	int fmt_given = 0, top = 20, diff = 0, c, k;
	size_t bands = 0;
	const char *y_axis = NULL;
	long n;
	const char *out_path = NULL;
	struct lk_profile_options opt = {.program_binary = 1};
	struct lk_cli_parser p;

	lk_cli_parse_init(&p, &lk_cli_eventlog, argc, argv);
	while ((c = lk_cli_next(&p)) > 0) {
		switch (c) {
		case 'f':
			if ((k = lk_cli_choice(&p)) < 0)
				return p.status;
			fmt = (enum format)k;
			fmt_given = 1;
			break;
		case 'o': out_path = p.value; break;
		case LK_CLI_TOP:
			if ((n = lk_cli_number(&p, 0, 1000000000)) < 0)
				return p.status;
			top = (int)n;
			break;
		case OPT_BANDS:
			if ((n = lk_cli_number(&p, 0, 1000000000)) < 0)
				return p.status;
			bands = (size_t)n;
			break;
		case OPT_Y_AXIS: y_axis = p.value; break;
		case OPT_MESSAGES: opt.messages = 1; break;
		case OPT_BINARY: opt.binary = p.value; break;
		case OPT_DIFF: diff = 1; break;
		}
	}
	if (c == LK_CLI_STOP)
		return p.status;

	if (diff) {
		if (p.n_args < 2)
			return usage_error("%s needs two inputs (eventlogs or .hp files)", "--diff");
		if (p.n_args > 2)
			return usage_error("--diff takes its two files, not '%s'", p.args[2]);
		if (bands)
			return usage_error("%s: --diff compares every band", "--bands");
		if ((fmt == FMT_HTML && fmt_given) || fmt == FMT_HP)
			return usage_error("%s: --diff writes text or json", fmt == FMT_HP ? "hp" : "html");
		return run_diff(p.args[0], p.args[1], fmt_given ? fmt : FMT_TEXT, out_path, top, &opt);
	}
	if (y_axis && fmt != FMT_HTML)
		return usage_error("%s labels the HTML charts", "--y-axis");
	if (p.n_args == 0)
		return usage_error("%s", "no input given");
	if (p.n_args > 1 && fmt != FMT_HTML)
		return usage_error("more than one input file: '%s' (several make one HTML page)",
				   p.args[1]);
	if (p.n_args > 1 && !out_path)
		return usage_error("%s: several inputs make one page, written to -o FILE",
				   p.args[1]);
	size_t n_in = p.n_args;
	struct lk_timeline *tls = calloc(n_in, sizeof(*tls));
	if (!tls) {
		lk_cli_error("eventlog: out of memory");
		return 1;
	}
	int status = load_all(p.args, n_in, &opt, bands, tls);
	if (!status) {
		struct output o = {.fmt = fmt, .tl = tls, .names = (const char *const *)p.args,
				   .n = n_in, .top = top, .y_axis = y_axis};
		status = lk_cli_write_report(p.args[0], out_path,
					     fmt == FMT_HTML ? ".html" : fmt == FMT_HP ? ".hp" : NULL,
					     write_report, &o);
	}
	for (size_t i = 0; i < n_in && (LK_CLI_FREE_AT_EXIT || status); i++)
		lk_timeline_release(&tls[i]);
	free(tls);
	return status;
}
