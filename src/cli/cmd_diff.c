/*
 * cmd_diff.c - `leakscope diff A B`: per allocation site, bytes and
 * objects added and removed between two points of one trace (exact per
 * block) or of two traces (sites matched by their symbolized stacks).
 *
 * Exit status: 0, 1 (a trace cannot be read, a point is not in it, the
 * output cannot be written), 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/history_load.h"
#include "common/error.h"
#include "report/trace/history_report.h"

static const struct lk_cli_opt options[] = {
	LK_CLI_OPT_FORMAT("text|json|html", "text (default), json or html (a self-contained\n"
			  "page: the sites that added blocks, a flame graph\n"
			  "and trees)"),
	LK_CLI_OPT_OUTPUT("write the report to FILE ('-': standard output)"),
	LK_CLI_OPT_TOP("text: the N largest changes (default 20; 0 = all)"),
	LK_CLI_OPT_FULL_STACKS,
	LK_CLI_OPT_COLOR,
	LK_CLI_OPT_QUIET,
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_diff = {
	.name = "diff",
	.summary = "what each allocation site added and removed between two points",
	.synopsis = "[OPTIONS] A B",
	.about =
	"A and B are TRACE@POINT, or TRACE alone for its end. POINT is a snapshot\n"
	"name, a marker text or a time (12.5 or 12.5s), as for 'leakscope report\n"
	"--from' (mark:TEXT, snapshot:NAME, time:S say which). The path is the\n"
	"longest prefix before an '@' that names an existing file.\n"
	"\n"
	"Within one trace the diff is exact per block: added = live at B and not\n"
	"at A, removed = live at A and not at B. Between two traces, sites are\n"
	"matched by their symbolized stacks (function, file:line, module) and\n"
	"the difference of their live bytes and objects is shown.\n",
	.opts = options,
	.notes =
	"exit status: 0; 1 a trace cannot be read, a point is not in it, or the\n"
	"output cannot be written; 2 usage error.\n",
};

struct side {
	char *path;
	struct lk_point point;
	const char *spec;
	struct stat st;
};

/* Split "TRACE@POINT": the longest prefix before an '@' naming a file. */
static int split(const char *arg, struct side *s)
{
	memset(s, 0, sizeof(*s));
	s->spec = arg;
	s->point.kind = LK_POINT_END;
	if (stat(arg, &s->st) == 0) {
		s->path = strdup(arg);
		return s->path ? 0 : -1;
	}
	for (const char *at = strrchr(arg, '@'); at; ) {
		char *p = strndup(arg, (size_t)(at - arg));
		if (!p)
			return -1;
		if (stat(p, &s->st) == 0) {
			s->path = p;
			return lk_point_parse(at + 1, &s->point) ? -2 : 0;
		}
		free(p);
		const char *prev = NULL;
		for (const char *q = arg; q < at; q++)
			if (*q == '@')
				prev = q;
		at = prev;
	}
	s->path = strdup(arg);  /* let the open fail with its reason */
	return s->path ? 0 : -1;
}

/* What the command line asks of the report. */
struct diff_opts {
	const char *out_path;
	int fmt, top;              /* 0 text, 1 json, 2 html */
	int color;                 /* --color's choice */
	struct lk_text_style style;
};

static int write_diff(const struct lk_tdiff *d, const struct diff_opts *opt, FILE *out)
{
	if (opt->fmt == 2)
		return lk_tdiff_write_html(d, out);
	if (opt->fmt == 1)
		return lk_tdiff_write_json(d, out);
	return lk_tdiff_write_text(d, opt->top, &opt->style, out);
}

static int run(struct side *a, struct side *b, struct diff_opts *opt)
{
	struct lk_history ha, hb;
	struct lk_tdiff d;
	int same = a->st.st_ino && a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino;
	int rc, status;
	if (same) {
		struct lk_hist_options o = {.from = a->point, .to = b->point, .from_after = 1,
					    .stop_at_to = 1};
		if (lk_cli_load_history(a->path, &o, &ha))
			return 1;
		rc = lk_tdiff_within(&ha, &d);
	} else {
		struct lk_hist_options oa = {.from.kind = LK_POINT_START, .to = a->point, .stop_at_to = 1};
		struct lk_hist_options ob = {.from.kind = LK_POINT_START, .to = b->point, .stop_at_to = 1};
		if (lk_cli_load_history(a->path, &oa, &ha))
			return 1;
		if (lk_cli_load_history(b->path, &ob, &hb)) {
			lk_history_release(&ha);
			return 1;
		}
		rc = lk_tdiff_between(&ha, &hb, &d);
	}
	d.a = a->spec;
	d.b = b->spec;
	status = 1;
	if (rc) {
		lk_cli_error("cannot compare: %s", lk_error_name(rc));
	} else {
		FILE *out = lk_cli_open_out(opt->out_path);
		opt->style.color = lk_cli_color(opt->color, lk_cli_out_fd());
		if (out)
			status = lk_cli_close_out(out, write_diff(&d, opt, out));
	}
	lk_tdiff_release(&d);
	lk_history_release(&ha);
	if (!same)
		lk_history_release(&hb);
	return status;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = {.top = 20};
	int c, k;
	long n;
	struct lk_cli_parser p;
	lk_cli_parse_init(&p, &lk_cli_diff, argc, argv);
	while ((c = lk_cli_next(&p)) > 0) {
		switch (c) {
		case 'f':
			if ((k = lk_cli_choice(&p)) < 0)
				return p.status;
			o.fmt = k;
			break;
		case 'o': o.out_path = p.value; break;
		case LK_CLI_TOP:
			if ((n = lk_cli_number(&p, 0, 1000000000)) < 0)
				return p.status;
			o.top = (int)n;
			break;
		case LK_CLI_FULL_STACKS: o.style.full_stacks = 1; break;
		case LK_CLI_COLOR:
			if ((o.color = lk_cli_choice(&p)) < 0)
				return p.status;
			break;
		}
	}
	if (c == LK_CLI_STOP)
		return p.status;
	if (p.n_args > 2)
		return lk_cli_usage_error("diff", "more than two points: '%s'", p.args[2]);
	if (p.n_args != 2)
		return lk_cli_usage_error("diff", "two points are needed: A B (TRACE@POINT or TRACE)");
	struct side sa, sb;
	int ra = split(p.args[0], &sa), rb = ra ? 0 : split(p.args[1], &sb);
	int status;
	if (ra == -2 || rb == -2)
		status = lk_cli_usage_error("diff", "%s", lk_error_detail());
	else if (ra || rb)
		status = 1;
	else
		status = run(&sa, &sb, &o);
	free(sa.path);
	if (!ra)
		free(sb.path);
	return status;
}
