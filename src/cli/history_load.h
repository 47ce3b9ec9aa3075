/*
 * history_load.h - what `leakscope report` and `leakscope diff` share:
 * reading a trace into a history (history/history.h) with progress on a
 * terminal and the messages of a failure.
 */
#ifndef LK_CLI_HISTORY_LOAD_H
#define LK_CLI_HISTORY_LOAD_H

#include <stdio.h>

#include "history/history.h"

/* Read path into h, printing progress (stderr a terminal) and, on failure,
 * one message. 0, or 1 (the exit status); h is released on failure. */
int lk_cli_load_history(const char *path, const struct lk_hist_options *opt,
			struct lk_history *h);

/* Parse "N" or "MIN-MAX" (bytes). 0 or -1. */
int lk_cli_parse_size(const char *s, uint64_t *min, uint64_t *max);

#endif
