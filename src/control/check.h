/*
 * check.h - `check` of a running recording: stop every thread of a traced
 * process, apply the events its ring still holds, run the reachability
 * scan (the one `leakscope run --scan` makes at exit), let the process go,
 * and write what is lost now as a leak report (text or JSON,
 * report/leak/leak_report.h). The process is resumed whatever failed.
 */
#ifndef LK_CONTROL_CHECK_H
#define LK_CONTROL_CHECK_H

#include <stdio.h>
#include <sys/types.h>

#include "analyze/suppress.h"
#include "collector/collector.h"
#include "collector/stopall.h"
#include "control/protocol.h"
#include "report/leak/leak_report.h"

struct lk_check {
	struct lk_collector *collector;
	const struct lk_suppressions *sup;  /* NULL: none */
	/* A wait status the stop took that belongs to the host (a thread's end,
	 * an event of a process it traces itself): handed back after resume. */
	void (*replay)(void *ctx, pid_t tid, int status);
	void *ctx;
};

#define LK_CHECK_STOP_MS 5000 /* every thread must have stopped by then */

/* Check req->pid (0: every running process of the collector), the report
 * in JSON or in text as req says. Returns 0 with the report on out, or a
 * negative code with lk_error_set() detail. */
int lk_check_run(const struct lk_check *k, const struct lk_control_request *req, FILE *out);

/* Scan s while st holds every thread of its process stopped: s->classes. */
int lk_check_scan_stopped(struct lk_session *s, struct lk_stopall *st);

/* The text report's options a check request gives. */
struct lk_leak_text_opts lk_check_text_opts(const struct lk_control_request *req);

#endif
