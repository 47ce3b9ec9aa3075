/*
 * detach.h - end an attach from outside: with every thread of the process
 * stopped, apply the events it published, scan it (the verdicts its trace
 * keeps), write back each GOT entry the interposer rewrote (still ours)
 * and the interposer's state off, through /proc/PID/mem, and resume it.
 * No code runs in the process for it: nothing can deadlock, and no event
 * comes after the scan.
 */
#ifndef LK_CONTROL_DETACH_H
#define LK_CONTROL_DETACH_H

#include <stdint.h>

#include "collector/session.h"

struct lk_detach_stats {
	unsigned restored;       /* GOT entries written back */
	unsigned skipped;        /* no longer ours (a module reloaded since) */
	uint64_t pause_us;       /* its threads were stopped that long */
	int scanned;
};

/* Detach s's process (its region says where the entries are); scan: make
 * the reachability scan too. Returns 0, or a negative code with
 * lk_error_set() detail (the process is resumed either way). */
int lk_detach_run(struct lk_session *s, int scan, struct lk_detach_stats *out);

#endif
