/*
 * cmd_attach.c - `leakscope attach [OPTIONS] PID`: record a process that is
 * already running, as `record` records one it starts, until Ctrl-C,
 * `leakscope detach PID` or the process's end. The interposer is loaded
 * into the process by its own dlopen (collector/inject.h) and rewrites its
 * GOT entries for the allocator (preload/gotpatch.c); the blocks the
 * process had before are read from glibc's heap (collector/glibcheap.h)
 * and recorded as allocated before the attach. At detach the entries are
 * put back and the process runs on alone.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/launcher.h"
#include "cli/recording.h"
#include "collector/allocator.h"
#include "collector/inject.h"
#include "collector/launch.h"
#include "common/error.h"
#include "common/fault.h"
#include "control/attach_heap.h"
#include "control/detach.h"

#define PERIOD_MS 5
#define INJECT_MS 10000

enum { OPT_SAMPLE = LK_CLI_LONG, OPT_FRAMES, OPT_PAUSED, OPT_NO_SCAN };

static const struct lk_cli_opt options[] = {
	LK_CLI_OPT_OUTPUT("trace (default: leakscope.COMM.PID.lstrace in the\n"
			  "current directory); processes the program forks\n"
			  "write FILE with .PID inserted before .lstrace"),
	{"sample-interval", OPT_SAMPLE, "MS", "sample RSS and live bytes every MS ms (default 100)"},
	{"frames", OPT_FRAMES, "N", "record at most N frames per stack (default 64)"},
	{"paused", OPT_PAUSED, NULL, "start with the recorded window closed\n"
	 "('leakscope start PID' opens it)"},
	{"no-scan", OPT_NO_SCAN, NULL, "no reachability scan at detach or at the end"},
	{"quiet", 'q', NULL, "say nothing on stderr but errors and warnings"},
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_attach = {
	.name = "attach",
	.summary = "record a process that is already running, without a restart",
	.synopsis = "[OPTIONS] PID",
	.about =
	"Load leakscope's interposer into the running process PID (through its own\n"
	"dlopen, with ptrace; no debugger needed) and record it into a trace as\n"
	"'leakscope record' would, until Ctrl-C, 'leakscope detach PID' or its end.\n"
	"The blocks it had allocated before are read from glibc's heap: their\n"
	"frees match, and reports group those still live as \"allocated before\n"
	"attach\" by size. While attached, 'leakscope mark|snapshot|start|stop|check\n"
	"PID' reach the recording. At detach the process's allocator calls go back\n"
	"to its allocator and it runs on; it can be attached again.\n",
	.opts = options,
	.notes =
	"The process must be of the same user (or leakscope run as root), not\n"
	"traced by a debugger, dynamically linked against glibc 2.34 or later, and\n"
	"use glibc's malloc; ptrace must be allowed (kernel.yama.ptrace_scope 0,\n"
	"or 1 as root). Each is checked first and refused with a message; the\n"
	"process is never left stopped, and goes on if leakscope is killed.\n"
	"\n"
	"exit status: 0 the recording ended (detached, or the process ended);\n"
	"2 usage error; 125 the process could not be attached, or a trace could\n"
	"not be written.\n",
};

struct attach_opts {
	const char *output;
	int frames;
	unsigned sample_ms;
	int paused, scan;
	pid_t pid;
};

static int parse(int argc, char **argv, struct attach_opts *o)
{
	int c;
	long v;
	struct lk_cli_parser p;
	lk_cli_parse_init(&p, &lk_cli_attach, argc, argv);
	while ((c = lk_cli_next(&p)) > 0) {
		switch (c) {
		case 'o': o->output = p.value; break;
		case OPT_SAMPLE:
			if ((v = lk_cli_number(&p, 1, 3600000)) < 0)
				return p.status;
			o->sample_ms = (unsigned)v;
			break;
		case OPT_FRAMES:
			if ((v = lk_cli_number(&p, 1, 128)) < 0)
				return p.status;
			o->frames = (int)v;
			break;
		case OPT_PAUSED: o->paused = 1; break;
		case OPT_NO_SCAN: o->scan = 0; break;
		}
	}
	if (c == LK_CLI_STOP)
		return p.status ? p.status : -1;
	if (p.n_args != 1)
		return lk_cli_usage_error("attach", "%s", p.n_args ? "one PID only" : "no PID given");
	char *end;
	long pid = strtol(p.args[0], &end, 10);
	if (*end || pid <= 0 || pid > INT_MAX)
		return lk_cli_usage_error("attach", "'%s' is not a pid", p.args[0]);
	o->pid = (pid_t)pid;
	return 0;
}

struct attach {
	struct lk_recording r;   /* first: the recording's hooks get us as theirs */
	struct lk_session *s;    /* the attached process's, once announced */
	uint64_t *sizes;         /* its attach_sizes (session.h) */
	int scan;                /* scan at detach */
	int detached;
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = sig;
}

/* on_announce: the process (or a child it forks later) has a region. */
static void announced(struct lk_session *s, void *ctx)
{
	struct attach *a = ctx;
	if (s->pid == a->r.root && !a->s)
		a->s = s;
	lk_recording_start(s, &a->r);
	lk_fault_point("announced");
}

static void serve(void *ctx)
{
	struct attach *a = ctx;
	lk_collector_poll(a->r.c, 0);
}


/* Until detach, Ctrl-C, or the end of every recorded process. */
static void record(struct attach *a)
{
	struct lk_recording *r = &a->r;
	int more = 0;
	while (r->c->n_running > 0 && !a->detached && !interrupted) {
		lk_collector_poll(r->c, more ? 1 : PERIOD_MS);
		lk_recording_reap(r);
		more = lk_recorder_tick(r->rec, PERIOD_MS / 2 + 1);
		lk_recording_say_failures(r);
	}
}

static char *default_output(pid_t pid)
{
	char path[64], comm[64] = "process", *out = NULL;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *f = fopen(path, "re");
	if (f && fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n/")] = 0;
	if (f)
		fclose(f);
	if (asprintf(&out, "leakscope.%s.%d.lstrace", comm, (int)pid) < 0)
		return NULL;
	return out;
}

/* Make the process load the interposer and start it, reporting to our
 * socket with at most frames frames per stack. */
static int load_interposer(struct attach *a, int frames, struct lk_inject_result *res)
{
	char *library = lk_launch_find_attach_library();
	if (!library)
		return lk_error_set(-ENOENT, "%s", "cannot find libleakscope-attach.so next to the "
				    "leakscope program");
	struct lk_inject in = {.library = library, .symbol = "leakscope_attached_start",
			       .argument = a->r.c->socket_path, .number = frames,
			       .timeout_ms = INJECT_MS, .idle = serve, .ctx = a};
	int rc = lk_inject_call(a->r.root, &in, res);
	free(library);
	return rc;
}

static const char *start_failure(int value)
{
	switch (value) {
	case -1: return "leakscope already records it (a 'run', 'record' or 'attach')";
	case -2: return "its allocator could not be found";
	case -3: return "its interposer could not reach this leakscope";
	case -4: return "no module of it calls malloc through its GOT";
	}
	return "unknown failure";
}

static int attach_to(struct attach *a, const struct attach_opts *o)
{
	struct lk_inject_result res;
	int rc = lk_inject_possible(o->pid);
	if (rc == 0)
		rc = lk_allocator_check(o->pid);
	if (rc < 0) {
		lk_cli_error("cannot attach to pid %d: %s", (int)o->pid, lk_error_detail());
		return rc;
	}
	a->r.seize_later = 1;
	rc = load_interposer(a, o->frames, &res);
	if (rc == 0 && res.value <= 0)
		rc = lk_error_set(-EPERM, "%s", start_failure(res.value));
	if (rc == 0 && !a->s)
		rc = lk_error_set(-EPROTO, "%s", "its interposer never announced itself");
	if (rc) {
		lk_cli_error("cannot attach to pid %d: %s", (int)o->pid, lk_error_detail());
		return rc;
	}
	struct lk_attach_heap_stats h = {0};
	rc = lk_attach_heap_add(a->s, &a->sizes, &h);
	if (rc)
		lk_cli_error("warning: the blocks pid %d had before the attach could not be read: "
			     "%s; their frees are not matched", (int)o->pid, lk_error_detail());
	if (a->r.x)
		lk_cli_seize(a->s, a->r.x);
	lk_cli_note("attached to pid %d in %.1f ms (thread %d; %d GOT entries rewritten; "
		    "%zu blocks, %llu bytes from before, threads stopped %.1f ms)",
		    (int)o->pid, (double)res.total_us / 1000, (int)res.tid, res.value, h.blocks,
		    (unsigned long long)h.bytes, (double)h.pause_us / 1000);
	lk_fault_point("attached");
	return 0;
}

static int detach_from(struct attach *a)
{
	struct lk_detach_stats d;
	if (a->detached || !a->s || a->s->state != LK_SESSION_RUNNING)
		return 0;
	if (a->r.x)
		lk_exitstop_release(a->r.x, a->r.root);
	int rc = lk_detach_run(a->s, a->scan, &d);
	lk_session_drain(a->s, 0);
	if (rc)
		lk_cli_error("detach from pid %d: %s", (int)a->r.root, lk_error_detail());
	else
		lk_cli_note("detached from pid %d: %u GOT entries restored%s (threads stopped %.1f ms)",
			    (int)a->r.root, d.restored, d.scanned ? ", scanned" : "",
			    (double)d.pause_us / 1000);
	a->detached = 1;   /* a failed detach is not tried again */
	return rc;
}

/* `leakscope detach`: answered once it is done. */
static int ctl_detach(void *ctx)
{
	return detach_from(ctx);
}

/* Answers still on their way (the detach's) go out before we close. */
static void flush_answers(struct attach *a, struct lk_control_server *server)
{
	for (int i = 0; i < 100 && lk_control_server_answering(server); i++)
		lk_collector_poll(a->r.c, 10);
}

int cmd_attach(int argc, char **argv)
{
	struct attach_opts o = {.frames = 64, .sample_ms = 100, .scan = 1};
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	struct lk_collector c;
	struct attach a = {.r = {.c = &c, .root = o.pid}, .scan = o.scan};
	struct lk_control_server *server = NULL;
	struct lk_control_ops ops = lk_recording_ops;
	char *out = NULL;
	rc = LK_EXIT_FAILURE;
	memset(&c, 0, sizeof(c));
	c.listen_fd = -1;
	lk_suppressions_init(&a.r.sup);
	ops.kind = "attach";
	ops.detach = ctl_detach;
	if (lk_collector_open(&c) != 0) {
		lk_cli_error("cannot create the control socket: %s", lk_error_detail());
		goto done;
	}
	c.follow = 1;
	c.root = o.pid;
	out = o.output ? strdup(o.output) : default_output(o.pid);
	struct lk_recorder_options ro = {
		.path = out, .named = o.output != NULL, .root = o.pid, .period_ms = PERIOD_MS,
		.sample_ms = o.sample_ms, .paused = o.paused,
	};
	if (!out || lk_recorder_new(&ro, &a.r.rec) != 0 ||
	    lk_suppressions_add_builtin(&a.r.sup) != 0) {
		lk_cli_error("attach: out of memory");
		goto done;
	}
	if (o.scan && lk_exitstop_new(&a.r.x, 1) != 0)
		a.r.x = NULL;
	c.on_announce = announced;
	c.on_release = lk_recording_release;
	c.ctx = &a;
	c.on_mark = lk_recording_mark;
	c.mark_ctx = &a.r;
	if (lk_control_server_open(&server, &ops, &a) == 0) {
		struct lk_poll_source src = {lk_control_server_fill, lk_control_server_dispatch,
					     server};
		lk_collector_add_source(&c, &src);
	}
	struct sigaction sa = {.sa_handler = on_interrupt};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (attach_to(&a, &o) != 0)
		goto done;
	record(&a);
	detach_from(&a);
	flush_answers(&a, server);
	lk_control_server_close(server);
	server = NULL;
	lk_collector_close(&c);
	lk_recording_say_failures(&a.r);
	rc = lk_recording_summary(a.r.rec) || a.r.failed ? LK_EXIT_FAILURE : 0;
done:
	lk_control_server_close(server);
	lk_collector_close(&c);
	lk_recorder_free(a.r.rec);
	lk_exitstop_free(a.r.x);
	lk_suppressions_release(&a.r.sup);
	free(a.sizes);
	free(out);
	return rc;
}
