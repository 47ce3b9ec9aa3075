/*
 * recording.h - what `record` and `attach` share: the state of a recording
 * under way, the collector's hooks that start a trace per process and put
 * the program's marks in it, the control socket's requests, and the
 * summary at the end. Messages are printed here (src/cli/ is the edge).
 */
#ifndef LK_CLI_RECORDING_H
#define LK_CLI_RECORDING_H

#include <stdio.h>

#include "analyze/suppress.h"
#include "collector/collector.h"
#include "collector/exitstop.h"
#include "control/server.h"
#include "record/recorder.h"

struct lk_recording {
	struct lk_collector *c;
	struct lk_exitstop *x;   /* exit stops, or NULL (--no-scan) */
	struct lk_recorder *rec;
	struct lk_suppressions sup;  /* the built-in list, for check */
	pid_t root;
	int status, done;        /* the root's wait status, once it ended */
	int failed;              /* a process could not be recorded */
	int seize_later;         /* an attach traces the process: seize it after */
};

/* c->on_mark: the program's leakscope_mark() and _snapshot(), in ring
 * order, into its trace. */
void lk_recording_mark(struct lk_session *s, const struct lk_mark *m, void *ctx);
/* c->on_announce: each new process image gets its trace. */
void lk_recording_start(struct lk_session *s, void *ctx);
/* c->on_release: a process handed over to another tracer. */
int lk_recording_release(pid_t pid, void *ctx);
/* Say traces that stopped (a full disk) at once. */
void lk_recording_say_failures(struct lk_recording *r);
/* Handle the wait statuses that are there (lk_cli_reap). */
void lk_recording_reap(struct lk_recording *r);
/* Events published before a request go in first. */
void lk_recording_drain_all(struct lk_recording *r);
/* The control socket's requests of a recording; ctx is the recording. */
extern const struct lk_control_ops lk_recording_ops;
/* The traces' summary on stderr; 1 when one of them failed. */
int lk_recording_summary(const struct lk_recorder *rec);

#endif
