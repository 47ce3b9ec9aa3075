/*
 * profile_harness.h - what the heap profile fuzz targets (eventlog_fuzz.c,
 * hp_fuzz.c) share: an input read twice, from memory (fmemopen: the
 * reader's buffer) and from a regular file (a memfd: its mapped windows),
 * every timeline writer (text, JSON, diff) run on each reading, and the
 * two JSON reports, with the reader's counts, compared. A target holds
 * only its reader and its own checks. Linked into every fuzz target
 * (Makefile: the sources of tests/fuzz/ not named *_fuzz.c).
 */
#ifndef LK_FUZZ_PROFILE_HARNESS_H
#define LK_FUZZ_PROFILE_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/timeline.h"
#include "eventlog/profile.h"

struct fuzz_profile {
	const char *name;  /* of the memfd */
	/* Read f into tl as lk_profile_read() does. */
	int (*read)(FILE *f, struct lk_timeline *tl, struct lk_profile_stats *st);
	/* More checks of the timeline read from memory (abort() when one
	 * fails), or NULL. */
	void (*check)(const struct lk_timeline *tl);
};

/* data (size bytes, size > 0) read twice by p; abort() when the two
 * readings differ or a stream cannot be opened. */
void fuzz_profile_run(const struct fuzz_profile *p, const uint8_t *data, size_t size);

#endif
