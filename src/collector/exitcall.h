/*
 * exitcall.h - the collector's side of the exit call-back (common/shm.h):
 * a process that ptrace cannot stop at its end hands over its own
 * /proc/self/mem and /proc/self/maps from its exit hook and waits; it is
 * scanned through them like a process stopped by ptrace, and from then on
 * its session drops later events (they would move the live blocks the
 * verdicts belong to).
 */
#ifndef LK_COLLECTOR_EXITCALL_H
#define LK_COLLECTOR_EXITCALL_H

#include "collector/session.h"
#include "common/shm.h"

/* Scan s (which asked for the call-back) through mem_fd and maps_fd (the
 * caller keeps them). Returns 0 or a negative code. */
int lk_exitcall_serve(struct lk_session *s, const struct lk_exit_hello *h, int mem_fd,
		      int maps_fd);

#endif
