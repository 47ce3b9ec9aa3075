/*
 * pass.h - the steps of a read of a trace into a history (history.c), for
 * lk_history_read() and for a trace followed as it grows (follow.c):
 * begin (the header), records (as many as there are), cut (the read
 * stopped at a truncation) and end (the window's last points, then the
 * statistics: the history is finished, and takes no more records).
 */
#ifndef LK_HISTORY_PASS_H
#define LK_HISTORY_PASS_H

#include <stdint.h>
#include <stdio.h>

#include "history/history.h"
#include "trace/reader.h"

/* Start h on the trace f (at its start): the reader opened into *rd (its
 * errors; LK_ETRUNC: the file ends inside the header). follow: the trace
 * is read as it grows, and never again: the blocks keep their allocation
 * times. h must be released in every case. */
int lk_hist_begin(struct lk_history *h, FILE *f, const struct lk_hist_options *opt, int follow,
		  struct lk_trace_reader **rd);

/* Every record rd has: 0 at the END (or where the window's end stops the
 * reading), LK_ETRUNC at the end of the last complete chunk (then again
 * once the file grew), or the first error. */
int lk_hist_records(struct lk_history *h, struct lk_trace_reader *rd);

/* The records stopped at a truncation: detail (the reader's) as a
 * warning, good_t the time of the last complete chunk. 0 or -ENOMEM. */
int lk_hist_cut(struct lk_history *h, const char *detail, uint64_t good_t);

/* Finish h: the window's pending points, the times of its blocks (read
 * again through rd when they come later) and the statistics. */
int lk_hist_end(struct lk_history *h, struct lk_trace_reader *rd);

#endif
