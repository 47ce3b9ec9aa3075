/*
 * session.h - one traced process image, as the collector sees it: its
 * shared region (mapped read-write: the collector hands ring slots back),
 * its live blocks, counters, and how it ended.
 *
 * The region is written by the target and never trusted (shmview.h): a
 * region found inconsistent is given up on - the session stops reading
 * it, keeps what it gathered, and its report says so (lk_session_note).
 */
#ifndef LK_COLLECTOR_SESSION_H
#define LK_COLLECTOR_SESSION_H

#include <stdint.h>
#include <sys/types.h>

#include "collector/live.h"
#include "collector/shmview.h"
#include "collector/why.h"
#include "common/shm.h"

enum lk_session_state { LK_SESSION_RUNNING, LK_SESSION_EXITED, LK_SESSION_EXECED };

struct lk_session;

/* One event as lk_session_drain() applied it, for a sink. */
struct lk_session_event {
	unsigned kind;             /* LK_EV_* (common/shm.h) */
	uint64_t pos;              /* ring position */
	uint32_t tid;
	uint64_t addr;
	uint64_t size;             /* LK_EV_SIZE of the slot */
	uint32_t stack;            /* session stack id of the slot */
	/* ALLOC: the new live entry (the sink may set LK_BLOCK_TRACED in its
	 * seq), NULL when addr is 0; FREE, REALLOC_FREE: a copy of the block
	 * that was removed, NULL if it was not live; REALLOC_UNDO: the block
	 * live again, NULL if nothing was undone. */
	struct lk_block *block;
	/* ALLOC only: a copy of a block that was live at addr and is replaced
	 * (its free was missed), else NULL. */
	const struct lk_block *replaced;
};

/*
 * Whoever wants to see a session's events as they are applied (the
 * recorder, src/record/). Set s->sink and s->sink_data, typically from the
 * collector's on_announce hook. Calls come from the collector's thread:
 *   begin  a drain that consumes events starts (take the time once here)
 *   event  each event, in ring order, after the live table was updated
 *   end    the session ended (its last events were drained) or is freed;
 *          called once, after which the sink is detached
 */
struct lk_session_sink {
	void (*begin)(void *data, struct lk_session *s);
	void (*event)(void *data, struct lk_session *s, const struct lk_session_event *ev);
	void (*end)(void *data, struct lk_session *s);
};

struct lk_session_stats {
	uint64_t allocations, frees, unmatched_frees, missed_frees;
	uint64_t bytes_allocated, peak_bytes, stuck_slots;
};

/* A mark or a named snapshot: from the program (leakscope_mark, in ring
 * order with its allocations) or from a control client. */
struct lk_mark {
	int snapshot;           /* 0: mark, 1: snapshot */
	uint64_t pos;           /* ring position: earlier events happened before */
	uint64_t live_bytes;    /* the process's live heap bytes at that point */
	uint32_t tid;           /* thread that made it; 0 from a control client */
	char *text;             /* owned */
};

struct lk_session;
typedef void (*lk_mark_fn)(struct lk_session *s, const struct lk_mark *m, void *ctx);

#define LK_SESSION_MARKS_MAX 4096
#define LK_ATTACH_STACK 0x80000000u  /* see attach_sizes */ /* marks a session keeps (keep_marks) */

/* A block's verdict kept by its number: leader_stack is an indirectly
 * lost block's leader's stack (0: none). */
struct lk_fixed_verdict {
	uint64_t seq;
	uint32_t leader_stack;
	uint8_t cls;
};

struct lk_session {
	pid_t pid, ppid;
	int forked;             /* child of fork() (not the program we ran) */
	char comm[64];
	char *exe;              /* /proc/PID/exe at start */
	char *cmdline;          /* argv joined by spaces */
	struct lk_shmview view;  /* the region: never trusted */
	const char *corrupt;    /* what the program overwrote, or NULL (see below) */
	char note[192];         /* ... and the report's sentence about it */
	uint64_t tail;          /* next ring position to consume */
	uint64_t stuck_since;   /* a wait for an uncommitted slot began then (ms) ... */
	uint64_t stuck_limit;   /* ... when positions below this were reserved */
	struct lk_live live;
	struct lk_session_stats stats;
	enum lk_session_state state;
	int pidfd;
	int wait_status;        /* valid if has_status */
	int has_status;
	struct lk_block undo[64];  /* last realloc-freed block per thread (tid % 64) */
	struct lk_live roots;     /* regions registered with leakscope_register_root */
	int scan_wanted, scan_errno; /* a scan at the end was asked; why ptrace failed */
	int exit_call;          /* no ptrace: the process calls back at exit (common/shm.h) */
	int handover;           /* let go of ptrace: enum lk_release_reason, or 0 */
	int traced_elsewhere;   /* another tracer had it when it announced itself */
	int own_malloc;         /* its executable defines malloc: we see nothing */
	int want_why;           /* keep what keeps each block (--why) */
	const char *go_note;    /* why Go's heap was scanned whole, or NULL */
	struct lk_why *why;     /* the last scan's, with want_why (collector/why.h) */
	char *handover_path;    /* LK_RELEASE_PRIVILEGED: the program it executed */
	int exit_called;        /* it did and was scanned: later events are dropped */
	uint8_t *classes;       /* per live slot, enum lk_leak_class; NULL: no scan */
	uint32_t *leaders;      /* per live slot: an indirectly lost block's
				 * definitely lost leader (its slot) */
	size_t unclassified;    /* blocks the scan left "not freed": they overlapped others */
	struct lk_fixed_verdict *fixed; /* the last scan's verdicts by block, once
				 * events after it moved the slots (a detach's:
				 * calls that were under way); else NULL */
	size_t n_fixed;
	int exec_pending;       /* an execve is under way (or replaced the image) */
	uint64_t order;         /* when it ended, for report order */
	lk_mark_fn on_mark;     /* called for every mark applied, or NULL */
	void *mark_ctx;
	int keep_marks;         /* keep up to LK_SESSION_MARKS_MAX marks here */
	struct lk_mark *marks;
	size_t n_marks;
	uint64_t marks_dropped; /* not kept, or lost in the target (slot busy) */
	uint64_t marks_bad;     /* events naming a text slot that was not committed */
	uint32_t marks_lost;    /* the region's mark_dropped, as last read */
	/* Blocks a process had before leakscope looked (control/attach_check.h,
	 * control/attach_heap.h) were read from glibc's heap, without stacks;
	 * such a block's stack is LK_ATTACH_STACK + the index of its size in
	 * these sizes (grouped by size). */
	const uint64_t *attach_sizes;
	uint32_t n_attach_sizes;
	const struct lk_session_sink *sink; /* NULL: nobody listens */
	void *sink_data;
};

/* Map memfd (not consumed) announced by hello; peer is the kernel's word on
 * who connected. */
int lk_session_open(struct lk_session **out, int memfd, const struct lk_hello *hello, pid_t peer);
void lk_session_free(struct lk_session *s);

/* Consume committed events; returns how many. final: the process is gone,
 * skip slots that will never be committed. Reads at most the positions
 * the ring can hold (common/shm.h, LK_THREADS_MAX); nothing once the
 * region was given up on. */
uint64_t lk_session_drain(struct lk_session *s, int final);

/* Give up on s's region: the program overwrote what (a phrase such as
 * "the ring's head"). The session reads the region no more and keeps what
 * it gathered; the ring's slots are abandoned (shmview.h) so the program's
 * threads never wait for it. The first reason is kept. */
void lk_session_corrupt(struct lk_session *s, const char *what);

/* The sentence a report of s carries when its region was given up on, or
 * NULL. */
const char *lk_session_note(const struct lk_session *s);

/* A mark at the current position (from a control client); text is copied.
 * Returns 0 or -ENOMEM. */
int lk_session_add_mark(struct lk_session *s, int snapshot, const char *text);
/* Call the sink's end (if a sink is attached) and detach it. */

void lk_session_detach(struct lk_session *s);

/* Frames of stack id (innermost first), copied into ips: the depth, 0 for
 * none (id 0), -EPROTO when the program overwrote the stack's entry. */
int lk_session_stack(const struct lk_session *s, uint32_t id, uint64_t ips[LK_MAX_FRAMES]);

/* The module containing runtime address ip: its file and load bias. */
int lk_session_module(const struct lk_session *s, uint64_t ip, const char **path, uint64_t *bias);

/* The same with the module's runtime range [lo, hi) as the loader mapped it. */
struct lk_session_module_info {
	const char *path;       /* a copy of the region's text, or s->exe; valid while s lives */
	uint64_t bias, lo, hi;
};
int lk_session_module_info(const struct lk_session *s, uint64_t ip,
			   struct lk_session_module_info *out);

#endif
