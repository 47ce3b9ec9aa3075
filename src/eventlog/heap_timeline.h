/*
 * heap_timeline.h - what both heap profile readers, the eventlog's
 * (profile.h) and the .hp file's (hp.h), write into their timeline the
 * same way, so that the two readings of one run give the same bands,
 * notes and warnings.
 *
 * A reader adds meta and warnings as it reads; at its end it moves the
 * bands and their values in (lk_heap_timeline_bands), adds what is its
 * own (columns, series), then finishes (lk_heap_timeline_finish): the
 * notes on the censuses, and the markers and bands in order.
 */
#ifndef LK_EVENTLOG_HEAP_TIMELINE_H
#define LK_EVENTLOG_HEAP_TIMELINE_H

#include <stdint.h>

#include "analyze/timeline.h"
#include "eventlog/band_index.h"
#include "eventlog/census.h"

/* The text of f and its arguments (printf) as the timeline's last
 * warning. 0 or -ENOMEM. */
int lk_heap_timeline_warn(struct lk_timeline *tl, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/* Meta key shown as value (owned; NULL: out of memory); a key set again
 * takes the new value. 0 or -ENOMEM (value freed). */
int lk_heap_timeline_meta(struct lk_timeline *tl, const char *key, char *value);
/* ... a number: shown as value, written to JSON as num under name
 * (static; NULL: key). */
int lk_heap_timeline_meta_num(struct lk_timeline *tl, const char *key, const char *name,
			      char *value, int64_t num);

/* No more censuses: c's points become tl's times, and bands' keys (text:
 * a cost-centre stack's ids made text first) tl's bands, with their values
 * and statistics (the keys leave bands). 0 or -ENOMEM. */
int lk_heap_timeline_bands(struct lk_timeline *tl, struct lk_census *c,
			   struct lk_band_index *bands);

/* The end: the meta "censuses" and "points" (when fewer), a warning for a
 * census drawn out of time order, and no_samples as one when there are
 * no points; markers in time order, bands by size. 0 or -ENOMEM. */
int lk_heap_timeline_finish(struct lk_timeline *tl, const struct lk_census *c,
			    const char *no_samples);

#endif
