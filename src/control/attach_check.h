/*
 * attach_check.h - `leakscope check PID` of a process leakscope did not
 * start: no recorder, no events, no stacks. Every thread is stopped
 * (collector/stopall.h), the blocks in use are read from glibc's heap
 * (collector/glibcheap.h), the reachability scan of a recorded check runs
 * on them, the process is let go, and the report groups the blocks by size
 * as "allocated before attach". The process is resumed whatever failed.
 */
#ifndef LK_CONTROL_ATTACH_CHECK_H
#define LK_CONTROL_ATTACH_CHECK_H

#include <stdio.h>

#include "control/protocol.h"

#define LK_ATTACH_TRIES 5 /* a heap caught in the middle of a change: stop again */

/* Check req->pid, the report in text or JSON as req says, on out. Returns
 * 0; LK_ALLOCATOR_RECORDED (collector/allocator.h) when leakscope's
 * interposer is in the process (a recording has it: nothing is done); or
 * a negative code with lk_error_set() detail (another allocator, no such
 * process, ptrace refused, a heap that stayed inconsistent). */
int lk_attach_check_run(const struct lk_control_request *req, FILE *out);

#endif
