/*
 * leaks.h - what a process left allocated: its live blocks grouped by
 * allocation stack, symbolized, split into reported and suppressed, largest
 * first. Built from a finished session; owns every string it holds.
 */
#ifndef LK_ANALYZE_LEAKS_H
#define LK_ANALYZE_LEAKS_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/suppress.h"
#include "analyze/why_path.h"
#include "analyze/timeline.h"
#include "collector/session.h"
#include "collector/symbolize.h"

/* Verdicts on a block still allocated at the end (valgrind's meanings);
 * the first four are what the reachability scan decides (analyze/reach.h),
 * NOT_FREED is all we know when no scan could be made (killed by SIGKILL,
 * ptrace not allowed). */
enum lk_leak_class {
	LK_CLASS_DEFINITE,
	LK_CLASS_INDIRECT,
	LK_CLASS_POSSIBLE,
	LK_CLASS_REACHABLE,
	LK_CLASS_NOT_FREED,
	LK_CLASS_COUNT
};

/* "definitely lost", ... and the JSON name "definitely-lost", ... */
const char *lk_leak_class_text(int cls);
const char *lk_leak_class_id(int cls);

/* The function of the one frame of a group of blocks that were allocated
 * before leakscope looked at the process (its module: "blocks of N bytes"). */
#define LK_ATTACH_FRAME "allocated before attach"

struct lk_leak {
	int cls;                   /* enum lk_leak_class */
	uint64_t bytes, objects;
	uint32_t stack;
	struct lk_frame_text *frames;
	size_t n_frames;
	const char *suppression;   /* pattern (owned by the suppressions) or NULL */
	const char *suppression_source; /* its file, or "builtin"; NULL when the
				    * group is held only by a suppressed one */
	struct lk_why_path *why;   /* --why, for still reachable and possibly lost
				    * groups: what keeps its first block; or NULL */
};

/* A check of a process leakscope did not start (control/attach_check.h):
 * how its heap was read. */
struct lk_attach_stats {
	uint64_t pause_us;         /* its threads were stopped this long */
	uint64_t blocks, bytes;    /* in use, read from glibc's heap */
	uint64_t chunks;           /* chunks walked, in use or free */
	uint64_t in_tcache, in_fastbins; /* free chunks that look in use, left out */
	unsigned arenas, heaps, mmapped, tries;
};

struct lk_leak_report {
	pid_t pid, ppid;
	int root, forked;
	char *command;             /* cmdline, or comm */
	char *exe;
	int has_status, status;    /* wait status */
	struct lk_session_stats stats;
	int scanned;               /* reachability classes are known */
	const char *alloc_note;    /* why allocations could not be seen, or NULL */
	const char *heap_note;     /* why a garbage-collected heap was scanned whole, or NULL */
	const char *scan_note;     /* why a scan that was asked for did not happen, or
				    * how it was made without ptrace */
	const char *region_note;   /* the program overwrote leakscope's shared memory:
				    * what the report lacks, or NULL */
	int incomplete;            /* ... and events were lost (lk_session_note) */
	const struct lk_attach_stats *attach; /* borrowed; NULL: leakscope started it */
	struct lk_leak *leaks;     /* reported: by class, then bytes descending */
	size_t n_leaks;
	struct lk_leak *suppressed;
	size_t n_suppressed;
	uint64_t leaked_bytes, leaked_objects, suppressed_bytes, suppressed_objects;
	uint64_t class_bytes[LK_CLASS_COUNT], class_objects[LK_CLASS_COUNT]; /* unsuppressed */
	const struct lk_mark *marks; /* the session's (borrowed: it must outlive the report) */
	size_t n_marks;
	uint64_t marks_dropped;
};

/* Group l (its frames now out's, or freed) into out: suppressed when a
 * suppression matches its frames or held_by_suppressed (an indirectly
 * lost group whose leader is suppressed), counted in its class, listed
 * unless it is still reachable and show_reachable is 0. *listed: where
 * it is listed now, or NULL. 0 or -ENOMEM. */
int lk_leak_report_add(struct lk_leak_report *out, struct lk_leak *l,
		       const struct lk_suppressions *sup, int held_by_suppressed, int show_reachable,
		       struct lk_leak **listed);

/* The lists by class, then bytes descending (lk_leak_report_add's order
 * is the caller's). */
void lk_leak_report_sort(struct lk_leak_report *r);

/* What a report must say about how s's blocks were classed: why a scan
 * that was asked for was not made, or how it was made without ptrace;
 * NULL when there is nothing to say. */
const char *lk_leaks_scan_note(const struct lk_session *s);

/* show_reachable: list still-reachable blocks too (always counted); why:
 * say what keeps each still reachable and possibly lost group (the scan
 * must have kept it: s->want_why). */
int lk_leaks_collect(const struct lk_session *s, struct lk_symbolizer *sym,
		     const struct lk_suppressions *sup, int root, int show_reachable, int why,
		     struct lk_leak_report *out);

/* Objects that make `run` fail CI: definitely and indirectly lost, and
 * not-freed blocks of a process that could not be scanned (objects, not
 * bytes: a lost zero-size block is a lost object). None when the report
 * is incomplete: the program overwrote leakscope's shared memory, frees
 * were lost, and its blocks are no verdict. */
uint64_t lk_leak_report_lost(const struct lk_leak_report *r);
void lk_leak_report_release(struct lk_leak_report *r);

#endif
