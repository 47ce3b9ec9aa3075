/*
 * scan.h - the reachability scan of a process stopped at its end: find its
 * roots in /proc/TID/maps and registers, read its memory through
 * /proc/TID/mem, and record a verdict for every live block in the session.
 */
#ifndef LK_COLLECTOR_SCAN_H
#define LK_COLLECTOR_SCAN_H

#include "collector/exitstop.h"
#include "collector/session.h"

/* Fill s->classes (enum lk_leak_class per live slot). */
int lk_scan_session(struct lk_session *s, const struct lk_exit_snapshot *snap);

#endif
