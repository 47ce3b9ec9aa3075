/* recording.c - the parts of a recording `record` and `attach` share (see
 * recording.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/launcher.h"
#include "cli/recording.h"
#include "common/error.h"
#include "control/check.h"


/* on_mark: leakscope_mark() / leakscope_snapshot() of the program, applied
 * in ring order: into its trace between the events before and after it. */
void lk_recording_mark(struct lk_session *s, const struct lk_mark *m, void *ctx)
{
	struct lk_recording *r = ctx;
	if (m->snapshot)
		lk_recorder_snapshot_session(r->rec, s, m->tid, m->text);
	else
		lk_recorder_mark_session(r->rec, s, m->tid, m->text);
}

/* on_announce: each new process image gets its trace. */
void lk_recording_start(struct lk_session *s, void *ctx)
{
	struct lk_recording *r = ctx;
	struct lk_recorder *rec = r->rec;
	const char *cmd = s->cmdline ? s->cmdline : s->comm;
	if (r->x && !r->seize_later)   /* it stops at its end, to be scanned */
		lk_cli_seize(s, r->x);
	lk_error_set(0, "%s", "");
	int rc = lk_recorder_attach(rec, s);
	if (rc) {
		const char *d = lk_error_detail();
		lk_cli_error("cannot record pid %d (%s): %s%s%s", (int)s->pid, cmd, d, *d ? ": " : "",
			     lk_cli_errtext(rc));
		r->failed = 1;
		return;
	}
	struct lk_recorder_info in;
	lk_recorder_info(rec, lk_recorder_count(rec) - 1, &in);
	lk_cli_note("recording pid %d (%s) to %s", (int)s->pid, cmd, in.path);
}

/* A trace that stopped (a full disk, say) is said at once; the program
 * runs on, and the file keeps what was written before. */
void lk_recording_say_failures(struct lk_recording *r)
{
	struct lk_recorder_info in;
	while (lk_recorder_take_failure(r->rec, &in) == 0) {
		lk_cli_error("cannot write '%s': %s; the trace of pid %d (%s) stops there",
			     in.path, lk_cli_errtext(in.err), (int)in.pid, in.comm);
		r->failed = 1;
	}
}

/* on_release: a process handed over to another tracer. */
int lk_recording_release(pid_t pid, void *ctx)
{
	struct lk_recording *r = ctx;
	return r->x ? lk_cli_release(pid, r->x) : -1;
}

void lk_recording_reap(struct lk_recording *r)
{
	lk_cli_reap(r->c, r->x, r->root, &r->status, &r->done);
}

/* ---- the control socket's requests (docs/control.md) -------------------- */

static int ctl_identify(void *ctx, FILE *out)
{
	struct lk_recording *r = ctx;
	for (size_t i = 0; i < lk_recorder_count(r->rec); i++) {
		struct lk_recorder_info in;
		char real[PATH_MAX];
		if (lk_recorder_info(r->rec, i, &in) != 0 || !in.running)
			continue;
		fprintf(out, "trace %d %s\n", (int)in.pid,
			realpath(in.path, real) ? real : in.path);
	}
	for (size_t i = 0; i < r->c->n_running; i++)
		fprintf(out, "process %d\n", (int)r->c->running[i]->pid);
	return 0;
}

/* Events the processes published before the request go in first. */
void lk_recording_drain_all(struct lk_recording *r)
{
	for (size_t i = 0; i < r->c->n_running; i++)
		lk_session_drain(r->c->running[i], 0);
}

static int ctl_mark(void *ctx, int snapshot, const char *text)
{
	struct lk_recording *r = ctx;
	lk_recording_drain_all(r);
	return snapshot ? lk_recorder_snapshot(r->rec, text) : lk_recorder_mark(r->rec, text);
}

static int ctl_window(void *ctx, int on)
{
	struct lk_recording *r = ctx;
	lk_recording_drain_all(r);
	lk_recorder_set_window(r->rec, on);
	return 0;
}

/* A wait status a check took from us. */
static void replay_status(void *ctx, pid_t pid, int st)
{
	struct lk_recording *r = ctx;
	lk_cli_handle_status(r->c, r->x, r->root, &r->status, &r->done, pid, st);
}

static int ctl_check(void *ctx, const struct lk_control_request *req, FILE *out)
{
	struct lk_recording *r = ctx;
	struct lk_check k = {.collector = r->c, .sup = &r->sup, .replay = replay_status,
			     .ctx = r};
	return lk_check_run(&k, req, out);
}

const struct lk_control_ops lk_recording_ops = {
	.kind = "record", .identify = ctl_identify, .mark = ctl_mark, .window = ctl_window,
	.check = ctl_check,
};

int lk_recording_summary(const struct lk_recorder *rec)
{
	int bad = 0;
	for (size_t i = 0; i < lk_recorder_count(rec); i++) {
		struct lk_recorder_info in;
		lk_recorder_info(rec, i, &in);
		double per = in.events ? (double)in.bytes / (double)in.events : 0;
		lk_cli_note("trace %s: pid %d (%s), %llu events in %.3f s, "
			"%llu bytes (%.2f bytes/event)%s", in.path, (int)in.pid, in.comm,
			(unsigned long long)in.events, in.seconds, (unsigned long long)in.bytes, per,
			in.err ? ", stopped early" : in.running ? ", still running" : "");
		if (in.region_note)
			fprintf(stderr, "leakscope: trace %s: %s\n", in.path, in.region_note);
		bad |= in.err != 0;
	}
	return bad;
}

