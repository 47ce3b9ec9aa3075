/*
 * profile.h - GHC eventlog heap profile -> struct lk_timeline.
 *
 * Reads a whole eventlog through the streaming reader (reader.h) and builds
 * the shared timeline model (analyze/timeline.h):
 *   bands    one per breakdown key of the heap profile (-hT closure type,
 *            -hi info table joined with IPE events, -hc cost-centre stack,
 *            -hm/-hd/-hy/-hr/-hb/-he sample strings); values in bytes at
 *            each census (HEAP_PROF_SAMPLE_BEGIN time, or the sample time of
 *            HEAP_BIO_PROF_SAMPLE_BEGIN);
 *   series   "heap size" (50), "live bytes" (51), "blocks size" (91, GHC 9.2+);
 *   markers  traceMarker (58), and traceEvent messages (19) when asked;
 *   meta     program, rts, start, breakdown, sampling interval, censuses,
 *            points (when fewer than censuses).
 * Events of several capabilities are not in time order in the file: series
 * and markers are sorted by time at the end (censuses are written in time
 * order). Memory is bounded by bands x LK_PROFILE_SAMPLES_MAX, and by
 * LK_PROFILE_VALUES_MAX with many bands (census.h), never by the length of
 * the run: past that many censuses, each drawn point is the mean of 2, 4,
 * 8 ... consecutive censuses, while the band statistics still cover every
 * census (plus the IPE / cost-centre tables, and series decimated to at
 * most LK_PROFILE_SERIES_MAX points).
 */
#ifndef LK_EVENTLOG_PROFILE_H
#define LK_EVENTLOG_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/timeline.h"

#define LK_PROFILE_SERIES_MAX 8192

struct lk_profile_options {
	int messages;        /* 1: USER_MSG (traceEvent) text becomes markers too */
	const char *binary;  /* -hi: the executable that names the info tables
			      * without an IPE entry (eventlog/infotables.h) */
	int program_binary;  /* 1: without binary, the program's own path from
			      * the eventlog, if that file exists */
};

struct lk_profile_stats {
	uint64_t bytes;      /* bytes of the file consumed */
	uint64_t events;     /* events read */
	int data_error;      /* 0, or the code (LK_ETRUNC, LK_EFORMAT, -EIO) of a
			      * failure inside the data: the timeline then holds
			      * what came before, and says so in its warnings */
};

/* Build *tl (zeroed by this function) from the eventlog in f.
 * Returns 0 when a timeline was built (complete, or partial: see
 * st->data_error and tl->warnings); a negative code when nothing could be
 * (not an eventlog, bad header, -ENOMEM), with *tl left empty.
 * opt and st may be NULL. lk_timeline_release() frees the result. */
int lk_profile_read(FILE *f, const struct lk_profile_options *opt,
		    struct lk_timeline *tl, struct lk_profile_stats *st);

/* Name of a heap profile breakdown (HEAP_PROF_BEGIN field):
 * 7 -> "closure type (-hT)"; NULL if unknown. */
const char *lk_profile_breakdown_name(uint32_t breakdown);

#endif
