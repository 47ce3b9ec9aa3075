/*
 * cmd_run.c - `leakscope run [OPTIONS] -- PROG ARGS`: run a program under
 * the interposer, follow its forks and execs, and when each process ends
 * scan its memory and report what it left allocated, classed definitely,
 * indirectly, possibly lost or still reachable. The program's exit status
 * passes through, or 23 (--exit-code) when it succeeded but leaked.
 * While it runs, a control socket answers `leakscope check PID` and
 * `leakscope mark PID TEXT` (docs/control.md).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/leaks.h"
#include "cli/cli.h"
#include "cli/launcher.h"
#include "cli/suppressions_load.h"
#include "collector/collector.h"
#include "collector/exitstop.h"
#include "collector/scan.h"
#include "common/error.h"
#include "control/check.h"
#include "control/server.h"
#include "report/leak/leak_report.h"

enum { OPT_NO_FOLLOW = LK_CLI_LONG, OPT_SUP, OPT_NO_DEF_SUP, OPT_SHOW_SUP, OPT_SHOW_REACH, OPT_WHY, OPT_GEN_SUP, OPT_SCAN, OPT_NO_SCAN, OPT_FRAMES, OPT_EXIT_CODE, OPT_NO_CONTROL };

static const struct lk_cli_opt options[] = {
	LK_CLI_OPT_OUTPUT("write the report to FILE (default: stderr; '-':\n"
			  "stdout), opened before PROGRAM starts"),
	LK_CLI_OPT_FORMAT("text|json|folded|html", "text (default), json (docs/json-leaks.md),\n"
			  "folded (stacks for flamegraph.pl, speedscope) or\n"
			  "html (a self-contained page; needs -o)"),
	LK_CLI_OPT_TOP("allocation sites listed per process in text\n"
		       "(default 10; 0 = all; a line counts the others;\n"
		       "JSON lists every site)"),
	LK_CLI_OPT_FULL_STACKS,
	LK_CLI_OPT_COLOR,
	{"no-follow", OPT_NO_FOLLOW, NULL, "trace only PROGRAM: not its forks and execs"},
	{"suppressions", OPT_SUP, "FILE", "leak:PATTERN lines (LeakSanitizer syntax); repeatable"},
	{"no-default-suppressions", OPT_NO_DEF_SUP, NULL,
	 "report runtime allocations kept until exit too"},
	{"show-suppressed", OPT_SHOW_SUP, NULL, "list the suppressed allocations in the text report"},
	{"gen-suppressions", OPT_GEN_SUP, NULL, "print the leak:PATTERN lines that suppress the\n"
	 "reported leaks, each once: the first frame that\n"
	 "is not an allocation wrapper"},
	{"show-reachable", OPT_SHOW_REACH, NULL, "list still-reachable blocks too (always counted)"},
	{"why", OPT_WHY, NULL, "list still-reachable blocks too, and say for each\n"
	 "still reachable and possibly lost group what keeps\n"
	 "it: the root (a global, a thread's stack in some\n"
	 "function, a register...) and the chain of blocks"},
	{"no-scan", OPT_NO_SCAN, NULL, "no reachability scan: every block still allocated\n"
	 "at the end is reported as 'not freed at exit'"},
	{"scan", OPT_SCAN, NULL, NULL}, /* the default; kept for old command lines */
	{"frames", OPT_FRAMES, "N", "record at most N frames per stack (default 64)"},
	{"exit-code", OPT_EXIT_CODE, "N", "exit with N when definitely or indirectly lost (or,\n"
	 "unscanned, not freed) blocks remain after\n"
	 "suppressions and the program itself succeeded\n"
	 "(default 23, as LeakSanitizer; 0: never)"},
	{"no-control", OPT_NO_CONTROL, NULL, "no control socket: 'leakscope check PID' and\n"
	 "'leakscope mark PID TEXT' cannot reach this run"},
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_run = {
	.name = "run",
	.summary = "run a program and report the memory it leaked",
	.synopsis = "[OPTIONS] [--] PROGRAM [ARGS...]",
	.about =
	"Run PROGRAM with leakscope's allocator interposer and report, for it and\n"
	"every process it forks or execs, the heap blocks still allocated when the\n"
	"process ended - however it ended (return, exit, _exit, Go's os.Exit, abort,\n"
	"a crash, SIGKILL) - grouped by allocation stack, largest first.\n"
	"\n"
	"Each process is stopped at its end (ptrace) and its memory scanned like\n"
	"valgrind and LeakSanitizer do: blocks are definitely lost, indirectly lost\n"
	"(only reachable from lost blocks), possibly lost (only through interior\n"
	"pointers, marked) or still reachable (counted; --show-reachable lists\n"
	"them). Where ptrace is not permitted, the process scans itself when it\n"
	"calls exit() or _exit(); a raw exit_group or a crash then cannot be\n"
	"scanned and its blocks are reported as not freed, with a note.\n",
	.opts = options,
	.notes =
	"environment: LEAKSCOPE_UNWIND=careful unwinds every stack with the careful\n"
	"unwinder alone, not the faster cache of CFI rules (same stacks; for\n"
	"comparison).\n"
	"LEAKSCOPE_DEBUGINFO_PATH=-:.debug:/usr/lib/debug:DIR... where separate debug\n"
	"files are searched (by build-id under DIR/.build-id, and by debuglink).\n"
	"LEAKSCOPE_PRELOAD=PATH the interposer to use (default: the one installed\n"
	"with leakscope).\n"
	"\n"
	"exit status: the program's own; 128+N if it was killed by signal N;\n"
	"23 (or N of --exit-code N) when it succeeded but leaked; 2 usage error\n"
	"(the program is not run); 127 program not found; 126 not executable;\n"
	"125 leakscope failed, the program cannot be traced (statically linked or\n"
	"setuid), or it succeeded but the report could not be written (a full\n"
	"disk, a closed pipe: said in one line, also when the program's own\n"
	"failure is the status).\n",
	.in_order = 1,
};

struct run_opts {
	const char *output;
	char format;              /* t(ext), j(son), f(olded) */
	int follow;
	int default_sup;
	struct lk_leak_text_opts text;
	int color;                /* --color's choice */
	int why;
	int scan;
	int frames;
	int leak_exit;
	int control;
	struct lk_suppressions sup;
};

/* The options; the index of PROGRAM, or -(exit status) after a message:
 * -LK_EXIT_USAGE, or -LK_EXIT_FAILURE when a suppressions file cannot be
 * read. After --help, 0. */
static int parse(int argc, char **argv, struct run_opts *o)
{
	const char *files[LK_CLI_SUPPRESSION_FILES];
	size_t n_files = 0;
	long v;
	int c;
	struct lk_cli_parser p;
	lk_cli_parse_init(&p, &lk_cli_run, argc, argv);
	while ((c = lk_cli_next(&p)) > 0) {
		switch (c) {
		case 'o': o->output = p.value; break;
		case 'f':
			if (lk_cli_choice(&p) < 0)
				return -p.status;
			o->format = p.value[0];
			break;
		case OPT_NO_FOLLOW: o->follow = 0; break;
		case OPT_SUP:
			if (n_files == sizeof(files) / sizeof(*files))
				return -lk_cli_usage_error("run", "too many --suppressions files");
			files[n_files++] = p.value;
			break;
		case OPT_NO_DEF_SUP: o->default_sup = 0; break;
		case LK_CLI_TOP:
			if ((v = lk_cli_number(&p, 0, 1000000000)) < 0)
				return -p.status;
			o->text.top = (size_t)v;
			break;
		case LK_CLI_FULL_STACKS: o->text.style.full_stacks = 1; break;
		case LK_CLI_COLOR:
			if ((v = lk_cli_choice(&p)) < 0)
				return -p.status;
			o->color = (int)v;
			break;
		case OPT_SHOW_SUP: o->text.show_suppressed = 1; break;
		case OPT_SHOW_REACH: o->text.show_reachable = 1; break;
		case OPT_WHY: o->why = o->text.show_reachable = 1; break;
		case OPT_SCAN: o->scan = 1; break;
		case OPT_NO_SCAN: o->scan = 0; break;
		case OPT_GEN_SUP: o->text.gen_suppressions = 1; break;
		case OPT_FRAMES:
			if ((v = lk_cli_number(&p, 1, 128)) < 0)
				return -p.status;
			o->frames = (int)v;
			break;
		case OPT_EXIT_CODE:
			if ((v = lk_cli_number(&p, 0, 255)) < 0)
				return -p.status;
			o->leak_exit = (int)v;
			break;
		case OPT_NO_CONTROL: o->control = 0; break;
		}
	}
	if (c == LK_CLI_STOP)
		return -p.status;
	if (p.n_args == 0)
		return -lk_cli_usage_error("run", "no program given");
	if (o->format == 'h' && (!o->output || strcmp(o->output, "-") == 0))
		return -lk_cli_usage_error("run", "--format html needs -o FILE");
	if (lk_cli_load_suppressions(&o->sup, o->default_sup, files, n_files) != 0)
		return -LK_EXIT_FAILURE;
	return (int)(p.args - argv);
}

static void seize(struct lk_session *s, void *ctx)
{
	lk_cli_seize(s, ctx);
}

static int release(pid_t pid, void *ctx)
{
	return lk_cli_release(pid, ctx);
}

/* What the wait loop knows; shared with the control server's ops. */
struct run_state {
	struct lk_collector *c;
	struct lk_exitstop *x;   /* exit stops, or NULL (--no-scan) */
	const struct run_opts *o;
	pid_t root;
	int status, done;        /* the root's wait status, once it ended */
};

/* A wait status a check took from us (launcher.h handles it). */
static void replay_status(void *ctx, pid_t pid, int st)
{
	struct run_state *r = ctx;
	lk_cli_handle_status(r->c, r->x, r->root, &r->status, &r->done, pid, st);
}

static void reap(struct run_state *r)
{
	lk_cli_reap(r->c, r->x, r->root, &r->status, &r->done);
}

static int trace(struct run_state *r)
{
	while (!r->done) {
		uint64_t n = lk_collector_poll(r->c, 2);
		reap(r);
		/* a process stopped by job control is seized again as it runs */
		size_t parked = r->x ? lk_exitstop_unpark(r->x) : 0;
		if (n == 0 && !r->done) {
			lk_collector_poll(r->c, parked ? 1 : 10);
			reap(r);
		}
	}
	/* announcements and ends that raced with the root's end */
	lk_collector_poll(r->c, 0);
	reap(r);
	lk_collector_poll(r->c, 0);
	return 0;
}

/* The control socket's requests (docs/control.md). */
static int ctl_identify(void *ctx, FILE *out)
{
	struct run_state *r = ctx;
	for (size_t i = 0; i < r->c->n_running; i++)
		fprintf(out, "process %d\n", (int)r->c->running[i]->pid);
	return 0;
}

static int ctl_mark(void *ctx, int snapshot, const char *text)
{
	struct run_state *r = ctx;
	for (size_t i = 0; i < r->c->n_running; i++) {
		struct lk_session *s = r->c->running[i];
		lk_session_drain(s, 0);
		if (lk_session_add_mark(s, snapshot, text) != 0)
			return -ENOMEM;
	}
	return 0;
}

static int ctl_check(void *ctx, const struct lk_control_request *req, FILE *out)
{
	struct run_state *r = ctx;
	struct lk_check k = {.collector = r->c, .sup = &r->o->sup, .replay = replay_status,
			     .ctx = r};
	return lk_check_run(&k, req, out);
}

static const struct lk_control_ops run_ops = {
	.kind = "run", .identify = ctl_identify, .mark = ctl_mark, .check = ctl_check,
};

/* The reports of every process to out, closed here: 0, or 1 after a
 * message. */
/* A session without a report: still running, or its image replaced by a
 * program that is not traced. */
static struct lk_unreported unreported_session(const struct lk_session *s)
{
	struct lk_unreported u = {.pid = s->pid, .command = s->cmdline ? s->cmdline : s->comm,
				  .why = LK_UNREPORTED_RUNNING};
	if (s->state == LK_SESSION_EXECED && s->handover == LK_RELEASE_PRIVILEGED) {
		u.why = LK_UNREPORTED_EXEC_PRIVILEGED;
		u.program = s->handover_path ? s->handover_path : "?";
	} else if (s->state == LK_SESSION_EXECED) {
		u.why = LK_UNREPORTED_EXEC_UNTRACED;
	}
	return u;
}

static int write_reports(struct lk_collector *c, const struct run_opts *o, FILE *out,
			 char **argv, pid_t root, int status, uint64_t *leaked)
{
	struct lk_symbolizer *sym;
	if (lk_symbolizer_new(&sym) != 0)
		return lk_cli_close_out(out, -ENOMEM);
	struct lk_run_result r = {
		.argv = argv, .text = o->text,
		.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
		.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0,
	};
	r.text.style.color = lk_cli_color(o->color, lk_cli_out_fd());
	r.reports = calloc(c->n_ended + 1, sizeof(*r.reports));
	r.unreported = calloc(c->n_running + c->n_ended + c->n_born + 1, sizeof(*r.unreported));
	for (size_t i = 0; r.unreported && i < c->n_running; i++)
		r.unreported[r.n_unreported++] = unreported_session(c->running[i]);
	for (size_t i = 0; r.unreported && i < c->n_born; i++)
		if (c->born[i].ended)
			r.unreported[r.n_unreported++] = (struct lk_unreported){
				.pid = c->born[i].pid, .command = c->born[i].command,
				.why = LK_UNREPORTED_UNANNOUNCED, .status = c->born[i].status};
	for (size_t i = 0; r.reports && r.unreported && i < c->n_ended; i++) {
		const struct lk_session *s = c->ended[i];
		if (s->state == LK_SESSION_EXECED) {
			r.unreported[r.n_unreported++] = unreported_session(s);
			continue;
		}
		if (lk_leaks_collect(s, sym, &o->sup, s->pid == root && !s->forked,
				     o->text.show_reachable, o->why, &r.reports[r.n_reports]) == 0)
			*leaked += lk_leak_report_lost(&r.reports[r.n_reports]);
		r.n_reports++;
	}
	int rc = r.reports && r.unreported ? 0 : -ENOMEM;
	if (rc == 0 && o->format == 'j')
		lk_leak_write_json(&r, out);
	else if (rc == 0 && o->format == 'f')
		lk_leak_write_folded(&r, out);
	else if (rc == 0 && o->format == 'h')
		rc = lk_leak_write_html(&r, out);
	else if (rc == 0)
		lk_leak_write_text(&r, out);
	for (size_t i = 0; i < r.n_reports; i++)
		lk_leak_report_release(&r.reports[i]);
	free(r.reports);
	free(r.unreported);
	lk_symbolizer_free(sym);
	return lk_cli_close_out(out, rc);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = {.follow = 1, .default_sup = 1, .scan = 1, .frames = 64,
			      .text.top = LK_LEAK_TEXT_TOP,
			      .leak_exit = LK_EXIT_LEAKS, .control = 1};
	lk_suppressions_init(&o.sup);
	int first = parse(argc, argv, &o);
	int rc = first <= 0 ? -first : LK_EXIT_FAILURE;
	char *path = NULL;
	struct lk_collector c;
	struct lk_exitstop *stops = NULL;
	struct lk_control_server *server = NULL;
	FILE *report = NULL;
	memset(&c, 0, sizeof(c));
	c.listen_fd = -1;
	if (first <= 0)
		goto out;
	/* the report's file is opened first: a report that cannot be written
	 * is said before the program runs, not after */
	report = o.output ? lk_cli_open_out(o.output) : lk_cli_open_stderr();
	if (!report)
		goto out;
	char **prog = argv + first;
	if (o.scan && lk_exitstop_new(&stops, o.follow) == 0) {
		c.on_announce = seize;
		c.on_release = release;
		c.ctx = stops;
	}
	/* the socket exists before the program runs: a client that sees the
	 * program start can reach it at once */
	struct run_state st = {.c = &c, .x = stops, .o = &o};
	if (o.control && lk_control_server_open(&server, &run_ops, &st) != 0)
		lk_cli_error("warning: no control socket (check, mark): %s", lk_error_detail());
	struct lk_launched run;
	int code = lk_cli_launch(&c, prog, o.follow, o.frames, &run);
	path = run.path;
	if (code) {
		rc = code;
		goto out;
	}
	pid_t pid = run.pid;
	st.root = pid;
	c.keep_marks = 1;
	c.want_why = o.why;
	if (server) {
		struct lk_poll_source src = {lk_control_server_fill, lk_control_server_dispatch,
					     server};
		lk_collector_add_source(&c, &src);
	}
	trace(&st);
	int status = st.status;
	if (c.announced == 0) {
		lk_cli_error("'%s' never loaded the interposer (LD_PRELOAD was ignored or "
			     "removed): nothing could be recorded", path);
		goto out;
	}
	uint64_t leaked = 0;
	int unwritten = write_reports(&c, &o, report, prog, pid, status, &leaked);
	report = NULL;
	/* the program's own failure wins; then a report that could not be
	 * written (said); then leaks */
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (rc == 0 && unwritten)
		rc = LK_EXIT_FAILURE;
	else if (leaked && o.leak_exit && rc == 0)
		rc = o.leak_exit;
out:
	if (report)   /* the program did not run: an empty report, no stale one */
		lk_cli_close_out(report, 0);
	lk_control_server_close(server);
	lk_exitstop_free(stops);
	lk_collector_close(&c);
	lk_suppressions_release(&o.sup);
	free(path);
	return rc;
}
