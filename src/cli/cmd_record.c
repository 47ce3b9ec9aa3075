/*
 * cmd_record.c - `leakscope record [OPTIONS] -- PROG ARGS`: run a program
 * like `run` does and write a trace file per traced process image while
 * it runs (src/record/, docs/recording.md). Exits with the program's
 * status; a summary of the traces goes to stderr at the end. While it
 * runs, a control socket serves mark, snapshot, start/stop of the recorded
 * window and check (docs/control.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/cli.h"
#include "cli/launcher.h"
#include "cli/recording.h"
#include "analyze/suppress.h"
#include "common/error.h"
#include "control/check.h"
#include "control/server.h"
#include "record/recorder.h"

#define PERIOD_MS 5      /* drain period while recording: the clock resolution */

enum { OPT_NO_FOLLOW = LK_CLI_LONG, OPT_SAMPLE, OPT_FRAMES, OPT_PAUSED, OPT_NO_CONTROL, OPT_NO_SCAN };

static const struct lk_cli_opt options[] = {
	LK_CLI_OPT_OUTPUT("trace of PROGRAM (default: leakscope.PROG.PID.lstrace\n"
			  "in the current directory); other processes write\n"
			  "FILE with .PID (.PID.N for a pid's N-th image)\n"
			  "inserted before .lstrace. Traces are mode 0600;\n"
			  "a name leakscope made up is never reused: when\n"
			  "it is taken, NAME-2.lstrace (-3 ...) is written"),
	{"no-follow", OPT_NO_FOLLOW, NULL, "trace only PROGRAM: not its forks and execs"},
	{"sample-interval", OPT_SAMPLE, "MS", "sample RSS and live bytes every MS ms (default 100)"},
	{"frames", OPT_FRAMES, "N", "record at most N frames per stack (default 64)"},
	{"paused", OPT_PAUSED, NULL, "start with the recorded window closed: no\n"
	 "allocation is written until it is opened\n"
	 "('leakscope start TRACE')"},
	{"no-control", OPT_NO_CONTROL, NULL, "no control socket: 'leakscope mark', 'snapshot',\n"
	 "'start', 'stop' and 'check' cannot reach it"},
	{"no-scan", OPT_NO_SCAN, NULL, "no reachability scan as each process ends: the\n"
	 "trace's leaks are only 'not freed'"},
	{"quiet", 'q', NULL, "say nothing on stderr but errors and warnings: no\n"
	 "trace announced as it starts, no summary at the end"},
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_record = {
	.name = "record",
	.summary = "run a program and write a trace of its heap while it runs",
	.synopsis = "[OPTIONS] [--] PROGRAM [ARGS...]",
	.about =
	"Run PROGRAM with leakscope's allocator interposer and write, while it runs,\n"
	"a trace file of every allocation and free (time, thread, size, stack), the\n"
	"stacks with their symbols, the modules, and samples of RSS and live bytes\n"
	"(docs/recording.md, docs/trace-format.md). Forks and execs are followed:\n"
	"each process image gets its own trace, announced on stderr as it starts.\n"
	"The recording goes on until every traced process has ended (a daemon that\n"
	"forked away from PROGRAM too). `leakscope dump TRACE` prints a trace.\n"
	"While it runs, `leakscope mark|snapshot|start|stop|check TRACE` (or PID)\n"
	"reach it through its control socket (docs/control.md).\n",
	.opts = options,
	.notes =
	"A trace that cannot be written (a full disk) is said at once and stops\n"
	"there; the program runs on, and the file keeps what was written.\n"
	"\n"
	"exit status: the program's own; 128+N if it was killed by signal N;\n"
	"2 usage error (the program is not run); 127 program not found; 126 not\n"
	"executable; 125 leakscope failed, the program cannot be traced\n"
	"(statically linked or setuid), or it succeeded but a trace could not be\n"
	"created or written.\n",
	.in_order = 1,
};

struct record_opts {
	const char *output;
	int follow;
	int frames;
	unsigned sample_ms;
	int paused;
	int control;
	int scan;
};

/* The options; the index of PROGRAM, or -(exit status) after a message
 * (0 after --help). */
static int parse(int argc, char **argv, struct record_opts *o)
{
	int c;
	long v;
	struct lk_cli_parser p;
	lk_cli_parse_init(&p, &lk_cli_record, argc, argv);
	while ((c = lk_cli_next(&p)) > 0) {
		switch (c) {
		case 'o': o->output = p.value; break;
		case OPT_NO_FOLLOW: o->follow = 0; break;
		case OPT_SAMPLE:
			if ((v = lk_cli_number(&p, 1, 3600000)) < 0)
				return -p.status;
			o->sample_ms = (unsigned)v;
			break;
		case OPT_FRAMES:
			if ((v = lk_cli_number(&p, 1, 128)) < 0)
				return -p.status;
			o->frames = (int)v;
			break;
		case OPT_PAUSED: o->paused = 1; break;
		case OPT_NO_CONTROL: o->control = 0; break;
		case OPT_NO_SCAN: o->scan = 0; break;
		}
	}
	if (c == LK_CLI_STOP)
		return -p.status;
	if (p.n_args == 0)
		return -lk_cli_usage_error("record", "no program given");
	return (int)(p.args - argv);
}

/* Until the program and every traced process it left behind have ended. */
static void record(struct lk_recording *r)
{
	struct lk_collector *c = r->c;
	int more = 0;
	while (!r->done || c->n_running > 0) {
		lk_collector_poll(c, more ? 1 : PERIOD_MS);
		lk_recording_reap(r);
		more = lk_recorder_tick(r->rec, PERIOD_MS / 2 + 1);
		lk_recording_say_failures(r);
		/* a process stopped by job control is seized again as it runs */
		if (r->x)
			more |= lk_exitstop_unpark(r->x) > 0;
	}
	/* announcements and ends that raced with the last end */
	lk_collector_poll(c, 0);
	lk_recording_reap(r);
	lk_collector_poll(c, 0);
}

static char *default_output(const char *prog, pid_t pid)
{
	const char *base = strrchr(prog, '/');
	char *p = NULL;
	if (asprintf(&p, "leakscope.%s.%d.lstrace", base ? base + 1 : prog, (int)pid) < 0)
		return NULL;
	return p;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {.follow = 1, .frames = 64, .sample_ms = 100, .control = 1, .scan = 1};
	int first = parse(argc, argv, &o);
	int rc = first <= 0 ? -first : LK_EXIT_FAILURE;
	struct lk_collector c;
	struct lk_recorder *rec = NULL;
	struct lk_control_server *server = NULL;
	struct lk_launched run = {0};
	struct lk_recording r = {.c = &c};
	char *out = NULL;
	memset(&c, 0, sizeof(c));
	c.listen_fd = -1;
	lk_suppressions_init(&r.sup);
	if (first <= 0)
		goto done;
	char **prog = argv + first;
	/* the socket exists before the program runs; requests wait in its
	 * backlog until record() serves them */
	if (o.scan && lk_exitstop_new(&r.x, o.follow) != 0)
		r.x = NULL;   /* no scan: the traces say why */
	if (o.control && lk_control_server_open(&server, &lk_recording_ops, &r) != 0)
		lk_cli_error("warning: no control socket (mark, start, stop, check): %s",
			     lk_error_detail());
	int code = lk_cli_launch(&c, prog, o.follow, o.frames, &run);
	if (code) {
		rc = code;
		goto done;
	}
	out = o.output ? strdup(o.output) : default_output(prog[0], run.pid);
	struct lk_recorder_options ro = {
		.path = out, .named = o.output != NULL, .root = run.pid, .period_ms = PERIOD_MS,
		.sample_ms = o.sample_ms, .paused = o.paused,
	};
	if (!out || lk_recorder_new(&ro, &rec) != 0 || lk_suppressions_add_builtin(&r.sup) != 0) {
		lk_cli_error("record: out of memory");
		goto done;   /* the program runs on, untraced once its ring is full */
	}
	r.rec = rec;
	r.root = run.pid;
	c.on_announce = lk_recording_start;
	c.on_release = lk_recording_release;
	c.ctx = &r;
	c.on_mark = lk_recording_mark;
	c.mark_ctx = &r;
	if (server) {
		struct lk_poll_source src = {lk_control_server_fill, lk_control_server_dispatch,
					     server};
		lk_collector_add_source(&c, &src);
	}
	record(&r);
	lk_control_server_close(server);
	server = NULL;
	if (c.announced == 0) {
		lk_cli_error("'%s' never loaded the interposer (LD_PRELOAD was ignored or "
			     "removed): nothing could be recorded", run.path);
		goto done;
	}
	lk_collector_close(&c);       /* closes traces still open */
	lk_recording_say_failures(&r);
	int bad = lk_recording_summary(rec) || r.failed;
	rc = WIFEXITED(r.status) ? WEXITSTATUS(r.status) : 128 + WTERMSIG(r.status);
	if (bad && rc == 0)
		rc = LK_EXIT_FAILURE;
done:
	lk_control_server_close(server);
	lk_collector_close(&c);
	lk_recorder_free(rec);
	lk_exitstop_free(r.x);
	lk_suppressions_release(&r.sup);
	lk_cli_launched_release(&run);
	free(out);
	return rc;
}
