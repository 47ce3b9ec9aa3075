/*
 * follow.h - a trace followed while it is written (`leakscope watch`):
 * each feed reads what was appended since the last one, up to the last
 * complete chunk, into a history that is never finished; a snapshot is a
 * finished history as of now, the same as lk_history_read() of the bytes
 * read so far gives, for any reader of a history, while the following
 * goes on. A feed costs what was appended; a snapshot what the state
 * holds (sites, live blocks, the window's cells), never the trace's
 * length.
 *
 * The followed history keeps each live block's allocation time (8 bytes
 * a block): a file read once keeps none and reads the few it shows again
 * at the end, which a followed trace would do at every snapshot.
 *
 * Ownership: the follower owns its history and its reader; f stays the
 * caller's, open until lk_hist_follow_close(). A snapshot owns its sites,
 * timelines, cells and totals, and borrows the rest from the follower
 * (history.h's `borrowed`): it is released (lk_history_release) before
 * the next feed or the follower's close.
 */
#ifndef LK_HISTORY_FOLLOW_H
#define LK_HISTORY_FOLLOW_H

#include <stdint.h>
#include <stdio.h>

#include "history/history.h"
#include "trace/reader.h"

struct lk_hist_follow {
	struct lk_history h;         /* the records so far, not finished */
	struct lk_trace_reader *rd;
	int ended;                   /* the END record was read: nothing more */
	char *cut;                   /* where the last feed stopped: the
				      * reader's truncation (NULL: at the end) */
	uint64_t cut_t;              /* the time of the last complete chunk */
};

/* Start following f (at its start) with the options of lk_history_read().
 * 0, LK_ETRUNC when f ends inside the header (not written yet: close, and
 * open again from its start later), or the reader's errors. fw must be
 * closed in every case. */
int lk_hist_follow_open(struct lk_hist_follow *fw, FILE *f, const struct lk_hist_options *opt);

/* Read what was appended: 0 (fw->ended when the END record came, or the
 * window's end stopped the reading: opt.stop_at_to), or the first error,
 * with the detail set (then the follower is done). */
int lk_hist_follow_feed(struct lk_hist_follow *fw);

/* A finished history of what the feeds read, into *out: 0, -ENOMEM, or
 * lk_history_read()'s errors of the window's points. *out must be
 * released in every case, before the next feed. */
int lk_hist_follow_snapshot(const struct lk_hist_follow *fw, struct lk_history *out);

void lk_hist_follow_close(struct lk_hist_follow *fw);

#endif
