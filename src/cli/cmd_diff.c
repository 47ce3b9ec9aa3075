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
#include "report/history_report.h"

static const char usage[] =
	"usage: leakscope diff [--format text|json] [-o FILE] [--top N] A B\n"
	"\n"
	"A and B are TRACE@POINT, or TRACE alone for its end. POINT is a snapshot\n"
	"name, a marker text or a time (12.5 or 12.5s), as for 'leakscope report\n"
	"--from' (mark:TEXT, snapshot:NAME, time:S say which). The path is the\n"
	"longest prefix before an '@' that names an existing file.\n"
	"\n"
	"Within one trace the diff is exact per block: added = live at B and not\n"
	"at A, removed = live at A and not at B. Between two traces, sites are\n"
	"matched by their symbolized stacks (function, file:line, module) and\n"
	"the difference of their live bytes and objects is shown.\n"
	"\n"
	"  --format F     text (default) or json\n"
	"  -o FILE        write there ('-' = standard output)\n"
	"  --top N        text: the N largest changes (default 20; 0 = all)\n"
	"  -h, --help     show this help\n";

static int usage_error(const char *fmt, const char *arg)
{
	return lk_cli_usage_error("diff", fmt, arg);
}

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

static int run(struct side *a, struct side *b, int json, const char *out_path, int top)
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
		FILE *out = lk_cli_open_out(out_path);
		if (out)
			status = lk_cli_close_out(out, json ? lk_tdiff_write_json(&d, out)
							    : lk_tdiff_write_text(&d, top, out));
	}
	lk_tdiff_release(&d);
	lk_history_release(&ha);
	if (!same)
		lk_history_release(&hb);
	return status;
}

int cmd_diff(int argc, char **argv)
{
	const char *out_path = NULL, *args[2] = {NULL, NULL};
	int json = 0, top = 20, n = 0, only = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int missing = 0, taken;
		if (only || a[0] != '-') {
			if (n == 2)
				return usage_error("more than two points: '%s'", a);
			args[n++] = a;
		} else if (strcmp(a, "--") == 0) {
			only = 1;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if ((v = lk_cli_value(argc, argv, &i, "--format", &missing))) {
			if (strcmp(v, "json") != 0 && strcmp(v, "text") != 0)
				return usage_error("unknown format '%s' (text or json)", v);
			json = v[0] == 'j';
		} else if ((taken = lk_cli_output_option("diff", argc, argv, &i, &out_path, &top,
							 &missing))) {
			if (taken == 2)
				return 2;
		} else if (missing) {
			return usage_error("%s needs a value", a);
		} else {
			return usage_error("unknown option '%s'", a);
		}
	}
	if (n != 2)
		return usage_error("%s", "two points are needed: A B (TRACE@POINT or TRACE)");
	struct side sa, sb;
	int ra = split(args[0], &sa), rb = ra ? 0 : split(args[1], &sb);
	int status;
	if (ra == -2 || rb == -2)
		status = usage_error("%s", lk_error_detail());
	else if (ra || rb)
		status = 1;
	else
		status = run(&sa, &sb, json, out_path, top);
	free(sa.path);
	if (!ra)
		free(sb.path);
	return status;
}
