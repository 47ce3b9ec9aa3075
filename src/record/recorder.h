/*
 * recorder.h - a recording: one trace file (docs/trace-format.md) per
 * traced process image, written while the processes run
 * (docs/recording.md).
 *
 * The recorder plugs into the collector through the session sink
 * (collector/session.h): lk_recorder_attach() from the collector's
 * on_announce hook gives each new session its trace; the sink then sees
 * every event as the collector drains the ring, stamps it with the time of
 * the drain, and closes the trace (END chunk) when the session ends. The
 * caller's poll loop drains at least every period_ms and calls
 * lk_recorder_tick() after each poll: samples, flushes (each second),
 * and symbolization of new frame addresses, bounded in time.
 *
 * File names: the program that was run (the first image of the root pid)
 * writes `path`; every other image (a fork child, an exec'd program)
 * writes `path` with ".PID" inserted before a ".lstrace" suffix (appended
 * when there is none), and ".PID.N" for its N-th image (N >= 2). Files
 * are created mode 0600. A name made up here (every ".PID" name, and
 * `path` unless the user named it) is created new, never reused: when it
 * is taken, "-2", "-3" ... go before the suffix; the other traces are then
 * named after the name the root's trace got.
 *
 * Everything here runs on the collector's one thread; nothing is
 * thread-safe. Functions return 0 or a negative code (common/error.h) and
 * never print. Failures of one trace (say, a full disk) stop that trace
 * and are kept in its lk_recorder_info; the recording goes on.
 */
#ifndef LK_RECORD_RECORDER_H
#define LK_RECORD_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "collector/session.h"

struct lk_recorder;

struct lk_recorder_options {
	const char *path;      /* trace of the program that was run (copied) */
	int named;             /* the user named path (-o): an own file there is
				* emptied, not another name taken */
	pid_t root;            /* its pid */
	uint32_t period_ms;    /* the caller's drain period (clock resolution); 0: 5 */
	uint32_t sample_ms;    /* SAMPLE records; 0: 100 */
	uint32_t flush_ms;     /* chunk flushes; 0: 1000 */
	int paused;            /* start with the window closed */
	int level;             /* zstd level; 0: the writer's default */
};

int lk_recorder_new(const struct lk_recorder_options *o, struct lk_recorder **out);

/* Close every trace still open (as if its session ended) and free rec. */
void lk_recorder_free(struct lk_recorder *rec);

/* Start the trace of a new session s (call from on_announce, before the
 * process goes on): creates its file and attaches the sink. On failure
 * (the file cannot be created) the session is not recorded; the detail
 * is set. */
int lk_recorder_attach(struct lk_recorder *rec, struct lk_session *s);

/* Periodic work; call after each lk_collector_poll(). Spends at most
 * budget_ms on symbolization. Returns 1 when frames are still queued
 * (poll again soon), 0 otherwise. */
int lk_recorder_tick(struct lk_recorder *rec, uint32_t budget_ms);

/* A marker (text) or a named snapshot (name) at the current time in every
 * running trace of the recording, with tid 0 (from outside the program).
 * Texts are cut at 4096 bytes. The control socket calls these. */
int lk_recorder_mark(struct lk_recorder *rec, const char *text);
int lk_recorder_snapshot(struct lk_recorder *rec, const char *name);

/* The same in the trace of one session only, at the time of the drain
 * that is under way, with the thread that sent it (for marks the program
 * sends through its ring: call from a session sink). 0 also when s is not
 * recorded (LK_ENOTFOUND is not an error the caller must report). */
int lk_recorder_mark_session(struct lk_recorder *rec, struct lk_session *s, uint32_t tid,
			     const char *text);
int lk_recorder_snapshot_session(struct lk_recorder *rec, struct lk_session *s, uint32_t tid,
				 const char *name);

/* Open (on = 1) or close the recorded window. While it is closed no ALLOC
 * is written; FREEs are written for blocks the trace holds, so each trace
 * stays consistent (never a free of a block it did not see allocated).
 * Samples, marks and snapshots go on. Applies to traces started later too. */
void lk_recorder_set_window(struct lk_recorder *rec, int on);
int lk_recorder_window(const struct lk_recorder *rec);

/* The traces of the recording, in the order they started. */
struct lk_recorder_info {
	const char *path;      /* valid while rec lives */
	pid_t pid;
	const char *comm;      /* program name */
	int running;           /* the file is still being written */
	uint64_t events;       /* event records written (allocs, frees, samples, marks) */
	uint64_t allocs, frees, symbols;
	double seconds;        /* trace time of the last event */
	uint64_t bytes;        /* file size (when closed; else what was written) */
	int err;               /* 0, or why the trace stopped early ... */
	const char *errmsg;    /* ... in words */
	const char *region_note; /* the program overwrote leakscope's shared memory:
				  * the sentence the trace ends with, or NULL */
};
size_t lk_recorder_count(const struct lk_recorder *rec);
int lk_recorder_info(const struct lk_recorder *rec, size_t i, struct lk_recorder_info *out);
/* The info of a trace that stopped early and was not given here before
 * (each failure is given once, to be said at once), or LK_ENOTFOUND. */
int lk_recorder_take_failure(struct lk_recorder *rec, struct lk_recorder_info *out);

#endif
