/*
 * cmd_control.c - the commands that talk to a running recording over its
 * control socket (docs/control.md): `leakscope mark`, `snapshot`, `start`,
 * `stop` and `check`. They share everything but their request, so they
 * share this file.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/error.h"
#include "collector/allocator.h"
#include "control/attach_check.h"
#include "control/client.h"
#include "control/protocol.h"
#include "report/leak/leak_report.h"

#define CALL_MS 10000
#define CHECK_MS 600000 /* a scan of a large heap takes a while */

#define TARGET_NOTES \
	"TARGET is the trace file a running 'leakscope record' writes, or the pid\n" \
	"of a process that 'leakscope record' or 'leakscope run' traces. Only\n" \
	"recordings of the same user can be reached (docs/control.md).\n" \
	"\n" \
	"exit status: 0 done; 1 no such recording, it refused, or the output could\n" \
	"not be written; 2 usage error.\n"

#define CHECK_NOTES \
	"TARGET is the trace file a running 'leakscope record' writes, or a pid.\n" \
	"A pid that no recording of the user traces (a process leakscope did not\n" \
	"start) is checked too: its blocks are read from glibc's heap and grouped\n" \
	"by size, without allocation stacks; another allocator is refused\n" \
	"(docs/control.md).\n" \
	"\n" \
	"exit status: 0 done; 1 no such recording or process, it refused, the heap\n" \
	"could not be read, or the output could not be written; 2 usage error.\n"

static const struct lk_cli_opt no_options[] = {LK_CLI_OPT_END};

enum { OPT_WHY = LK_CLI_LONG };

static const struct lk_cli_opt check_options[] = {
	LK_CLI_OPT_FORMAT("text|json", "text (default) or json (docs/json-leaks.md)"),
	{"why", OPT_WHY, NULL, "list still reachable and possibly lost groups\n"
	 "too, each with what keeps it: the root and the\n"
	 "chain of blocks"},
	LK_CLI_OPT_TOP("allocation sites listed per process in text\n"
		       "(default 10; 0 = all; a line counts the others;\n"
		       "JSON lists every site)"),
	LK_CLI_OPT_FULL_STACKS,
	LK_CLI_OPT_COLOR,
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_mark = {
	.name = "mark", .summary = "add a marker to a running recording",
	.synopsis = "TARGET TEXT",
	.about = "Add a marker TEXT to the recording at this point (as leakscope_mark() does\n"
		 "from inside the program). TEXT is one printable line of at most 495 bytes.\n",
	.opts = no_options, .notes = TARGET_NOTES, .in_order = 1,
};

const struct lk_cli_cmd lk_cli_snapshot = {
	.name = "snapshot", .summary = "take a named snapshot in a running recording",
	.synopsis = "TARGET NAME",
	.about = "Take a named snapshot of the live heap of the recorded processes (as\n"
		 "leakscope_snapshot() does from inside the program).\n",
	.opts = no_options, .notes = TARGET_NOTES, .in_order = 1,
};

const struct lk_cli_cmd lk_cli_start = {
	.name = "start", .summary = "start the recorded window of a running recording",
	.synopsis = "TARGET",
	.about = "Start (resume) recording allocation events: the recorded window opens.\n",
	.opts = no_options, .notes = TARGET_NOTES, .in_order = 1,
};

const struct lk_cli_cmd lk_cli_stop = {
	.name = "stop", .summary = "stop the recorded window of a running recording",
	.synopsis = "TARGET",
	.about = "Stop recording allocation events until 'leakscope start': the recorded\n"
		 "window closes (the recording itself goes on).\n",
	.opts = no_options, .notes = TARGET_NOTES, .in_order = 1,
};

const struct lk_cli_cmd lk_cli_detach = {
	.name = "detach", .summary = "end a 'leakscope attach': the process runs on alone",
	.synopsis = "TARGET",
	.about = "End the recording that 'leakscope attach' made of a running process: the\n"
		 "process's allocator calls go back to its allocator, the trace is\n"
		 "completed (with a scan of the process as it is now), and the process\n"
		 "runs on. It may be attached again later.\n",
	.opts = no_options, .notes = TARGET_NOTES, .in_order = 1,
};

const struct lk_cli_cmd lk_cli_check = {
	.name = "check", .summary = "stop a running program, report what it lost now, resume it",
	.synopsis = "[OPTIONS] TARGET",
	.about = "Stop the recorded process (every thread), scan its memory for blocks that\n"
		 "nothing points to any more, resume it, and print those definitely and\n"
		 "indirectly (and possibly) lost blocks grouped by allocation stack. When\n"
		 "TARGET is a pid, only that process is checked, else every process of the\n"
		 "recording.\n",
	.opts = check_options, .notes = CHECK_NOTES, .in_order = 1,
};

/* What check asks for. */
struct check_opts {
	int json, why, full, color;   /* color: --color's choice */
	long top;
};

/* One option of check: 0, or -1 after a usage error. */
static int check_option(struct lk_cli_parser *p, int o, struct check_opts *k)
{
	long v = 0;
	if ((o == 'f' || o == LK_CLI_COLOR) && (v = lk_cli_choice(p)) < 0)
		return -1;
	if (o == LK_CLI_TOP && (v = lk_cli_number(p, 0, 1000000000)) < 0)
		return -1;
	switch (o) {
	case OPT_WHY: k->why = 1; break;
	case 'f': k->json = v == 1; break;
	case LK_CLI_TOP: k->top = v; break;
	case LK_CLI_FULL_STACKS: k->full = 1; break;
	case LK_CLI_COLOR: k->color = (int)v; break;
	}
	return 0;
}

/* The operands; the index of TARGET, or -(exit status) after a message
 * (0 after --help). */
static int parse(const struct lk_cli_cmd *c, int argc, char **argv, struct check_opts *k)
{
	struct lk_cli_parser p;
	int o;
	lk_cli_parse_init(&p, c, argc, argv);
	while ((o = lk_cli_next(&p)) > 0)
		if (check_option(&p, o, k) != 0)
			return -p.status;
	if (o == LK_CLI_STOP)
		return -p.status;
	int want = c == &lk_cli_mark || c == &lk_cli_snapshot ? 2 : 1;  /* TARGET [TEXT] */
	if (p.n_args != want)
		return -lk_cli_usage_error(c->name, "%s", p.n_args < want ? "missing arguments"
									  : "too many arguments");
	return (int)(p.args - argv);
}

/* The check request for k (and pid, when not 0) in req. */
static void check_request(const struct check_opts *k, pid_t pid, char *req, size_t size)
{
	int n = snprintf(req, size, "check%s%s%s%s top=%ld", k->json ? " json" : "",
			 k->why ? " why" : "", k->full ? " full" : "",
			 !k->json && lk_cli_color(k->color, STDOUT_FILENO) ? " color" : "", k->top);
	if (pid && n > 0 && (size_t)n < size)
		snprintf(req + n, size - (size_t)n, " %d", (int)pid);
}

static int is_pid(const char *target)
{
	char *end;
	long pid = strtol(target, &end, 10);
	return *target && !*end && pid > 0 && pid < INT_MAX;
}

/* check of a pid no recording serves: leakscope did not start it, its heap
 * is read (control/attach_check.h) here. */
static int check_unrecorded(const struct check_opts *k, const char *target)
{
	char req[LK_CONTROL_LINE_MAX], unfound[512];
	struct lk_control_request r;
	snprintf(unfound, sizeof(unfound), "%s", lk_error_detail());
	check_request(k, (pid_t)atoi(target), req, sizeof(req));
	if (lk_control_parse(req, &r) != 0) {
		lk_cli_error("check: %s", lk_error_detail());
		return 1;
	}
	FILE *out = lk_cli_open_out("-");
	if (!out)
		return 1;
	int rc = lk_attach_check_run(&r, out);
	if (rc != 0) {
		if (rc == LK_ALLOCATOR_RECORDED) /* a recording has it, not ours */
			lk_cli_error("%s", unfound);
		else
			lk_cli_error("check: %s", lk_error_detail());
		lk_cli_close_out(out, 0);
		return 1;
	}
	return lk_cli_close_out(out, 0);
}

static int control(const struct lk_cli_cmd *c, int argc, char **argv)
{
	struct check_opts k = {.top = LK_LEAK_TEXT_TOP};
	int at = parse(c, argc, argv, &k);
	if (at <= 0)
		return -at;
	const char *target = argv[at], *text = at + 1 < argc ? argv[at + 1] : NULL;
	if (text && lk_control_text_check(text) != 0)
		return lk_cli_usage_error(c->name, "%s", lk_error_detail());
	struct lk_control_target t;
	int found = lk_control_find(target, &t);
	if (found == LK_ENOTFOUND && c == &lk_cli_check && is_pid(target))
		return check_unrecorded(&k, target);
	if (found != 0) {
		lk_cli_error("%s", lk_error_detail());
		return 1;
	}
	char req[LK_CONTROL_LINE_MAX];
	if (text)
		snprintf(req, sizeof(req), "%s %s", c->name, text);
	else if (!strcmp(c->name, "check")) /* by pid: that process only */
		check_request(&k, t.pid, req, sizeof(req));
	else
		snprintf(req, sizeof(req), "%s", c->name);
	char *body;
	size_t len;
	int slow = !strcmp(c->name, "check") || !strcmp(c->name, "detach");
	if (lk_control_call(t.socket, req, text || !slow ? CALL_MS : CHECK_MS,
			    &body, &len) != 0) {
		lk_cli_error("%s: %s", c->name, lk_error_detail());
		return 1;
	}
	FILE *out = lk_cli_open_out("-");
	int status = 1;
	if (out) {
		fwrite(body, 1, len, out);
		status = lk_cli_close_out(out, 0);
	}
	free(body);
	return status;
}

int cmd_mark(int argc, char **argv) { return control(&lk_cli_mark, argc, argv); }
int cmd_snapshot(int argc, char **argv) { return control(&lk_cli_snapshot, argc, argv); }
int cmd_start(int argc, char **argv) { return control(&lk_cli_start, argc, argv); }
int cmd_stop(int argc, char **argv) { return control(&lk_cli_stop, argc, argv); }
int cmd_check(int argc, char **argv) { return control(&lk_cli_check, argc, argv); }
int cmd_detach(int argc, char **argv) { return control(&lk_cli_detach, argc, argv); }
