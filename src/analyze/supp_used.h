/*
 * supp_used.h - which suppressions matched a process's report and how
 * much each took away (LeakSanitizer's "Suppressions used"): one row per
 * pattern, the objects and bytes of the groups it suppressed, largest
 * first. Groups held only by a suppressed group count in the report's
 * suppressed total but under no pattern.
 */
#ifndef LK_ANALYZE_SUPP_USED_H
#define LK_ANALYZE_SUPP_USED_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/leaks.h"

struct lk_supp_use {
	const char *pattern;   /* borrowed from the report's groups */
	const char *source;    /* the file it was read from, or "builtin" */
	uint64_t objects, bytes;
};

/* The rows of r in *out (malloc'ed, *n of them; NULL and 0 when none).
 * 0 or -ENOMEM. */
int lk_supp_used(const struct lk_leak_report *r, struct lk_supp_use **out, size_t *n);

#endif
