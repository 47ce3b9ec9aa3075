/*
 * rtrace.h - one trace file of a recording: the trace writer of one traced
 * process image and what it needs to keep the file self-contained and
 * consistent (internal to src/record/; the public API is recorder.h).
 *
 * It maps the session's stack ids to the trace's dense ids (a stack is
 * written before the first event naming it), queues every new frame
 * address for symbolization and writes its SYMBOL record (and the MODULE
 * record of its module) when lk_rtrace_symbolize() is given time, writes
 * ALLOC only while the window is open and FREE only for blocks the trace
 * holds (LK_BLOCK_TRACED), samples RSS and live bytes, and flushes.
 *
 * Errors: the first failure of the writer is kept (err, errmsg) and the
 * trace stops writing; the recording goes on.
 */
#ifndef LK_RECORD_RTRACE_H
#define LK_RECORD_RTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "collector/session.h"
#include "collector/symbolize.h"
#include "trace/writer.h"

struct lk_rtrace_module {
	char *path;
	uint64_t bias;
	uint32_t id;
};

struct lk_rtrace {
	void *owner;                  /* the recorder */
	struct lk_session *s;         /* NULL once the session ended */
	pid_t pid;
	char *path;                   /* the file */
	int fd;                       /* its descriptor, -1 once closed */
	char *comm;                   /* program name, for messages */
	struct lk_trace_writer *w;    /* NULL once closed */
	uint64_t t0;                  /* CLOCK_MONOTONIC ns at trace time 0 */
	uint64_t now;                 /* ticks of the current drain */
	int window;                   /* ALLOCs are written */

	uint32_t *stack_map;          /* session stack id -> trace id, 0: none yet */
	size_t stack_cap;
	uint32_t *attach_map;         /* the same for LK_ATTACH_STACK + index */
	size_t attach_cap;
	uint32_t n_stacks;

	uint64_t *seen;               /* frame addresses queued (open addressing, 0 empty) */
	size_t seen_cap, seen_n;
	uint64_t seen_key;            /* its hash's multiplier (lk_live_key) */
	uint64_t *todo;               /* addresses still to symbolize, FIFO */
	size_t todo_head, todo_n, todo_cap;

	struct lk_rtrace_module *mods;
	size_t n_mods, cap_mods;

	uint64_t sample_ns, flush_ns;     /* periods */
	uint64_t next_sample, next_flush; /* CLOCK_MONOTONIC ns */
	uint64_t last_rss, last_sample;   /* the last sample's RSS, and when (ns) */
	uint64_t events, allocs, frees, symbols;
	uint64_t t_last;              /* ticks of the last event */
	uint64_t bytes;               /* file size when closed */
	int err;                      /* first failure, 0 if none */
	int err_taken;                /* lk_recorder_take_failure() gave it */
	char errmsg[256];
	char *region_note;            /* lk_session_note() at the end, or NULL */
};

struct lk_rtrace_config {
	uint32_t period_ms;           /* drain period: the header's clock resolution */
	uint32_t sample_ms;
	uint32_t flush_ms;
	int window;
	int level;                    /* zstd level, 0: the writer's default */
};

/* The trace of session s (not yet attached) in the file path, open at
 * fd, which it owns from now on (closed on failure too): writes the
 * header. */
int lk_rtrace_open(struct lk_rtrace **out, struct lk_session *s, const char *path, int fd,
		   const struct lk_rtrace_config *cfg);

/* The current time (CLOCK_MONOTONIC) in ticks of this trace. */
void lk_rtrace_clock(struct lk_rtrace *t, uint64_t mono_ns);

void lk_rtrace_event(struct lk_rtrace *t, const struct lk_session_event *ev);
void lk_rtrace_mark(struct lk_rtrace *t, uint32_t tid, const char *text, int snapshot);

/* Periodic work at mono_ns: samples, flushes, and symbolization until
 * deadline_ns (CLOCK_MONOTONIC). Returns 1 if addresses remain queued. */
int lk_rtrace_tick(struct lk_rtrace *t, struct lk_symbolizer *sym, uint64_t mono_ns,
		   uint64_t deadline_ns);

/* The session ended: symbolize every queued frame, write END, close the
 * file. The trace stays for the summary. */
void lk_rtrace_close(struct lk_rtrace *t, struct lk_symbolizer *sym);

void lk_rtrace_free(struct lk_rtrace *t);

/* CLOCK_MONOTONIC in ns. */
uint64_t lk_rtrace_mono_ns(void);

#endif
