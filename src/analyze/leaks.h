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
#include "analyze/timeline.h"
#include "collector/session.h"
#include "collector/symbolize.h"

struct lk_leak {
	uint64_t bytes, objects;
	uint32_t stack;
	struct lk_frame_text *frames;
	size_t n_frames;
	const char *suppression;   /* pattern (owned by the suppressions) or NULL */
};

struct lk_leak_report {
	pid_t pid, ppid;
	int root, forked;
	char *command;             /* cmdline, or comm */
	char *exe;
	int has_status, status;    /* wait status */
	struct lk_session_stats stats;
	struct lk_leak *leaks;     /* reported, bytes descending */
	size_t n_leaks;
	struct lk_leak *suppressed;
	size_t n_suppressed;
	uint64_t leaked_bytes, leaked_objects, suppressed_bytes, suppressed_objects;
};

int lk_leaks_collect(const struct lk_session *s, struct lk_symbolizer *sym,
		     const struct lk_suppressions *sup, int root, struct lk_leak_report *out);
void lk_leak_report_release(struct lk_leak_report *r);

#endif
