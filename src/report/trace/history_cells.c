/*
 * history_cells.c - the cells of a trace's window (history/cells.h) as the
 * HTML page's data, from which report.js recomputes any window between two
 * sample times:
 *
 *   "cells": {"t": [seconds...],              end of each interval (to the
 *                                             nanosecond); the last
 *                                             is the window's end
 *             "sites": [[site, a, f, blocks, bytes, temporary, a, f, ...], ...]}
 *
 * one array per site, its cells by allocation interval a (-1: before the
 * window) then free interval f (-1: not freed when the window ended);
 * temporary: how many of the blocks were temporary allocations.
 */
#include <errno.h>
#include <inttypes.h>

#include "report/trace/history_report.h"
#include "report/json.h"

static void times_json(FILE *f, const struct lk_history *h)
{
	fputs(",\"cells\":{\"t\":[", f);
	for (size_t j = 0; j < h->sampler.due; j++) {
		if (j)
			putc(',', f);
		lk_json_fixed(f, h->times[j], 9);
	}
	if (h->sampler.due)
		putc(',', f);
	lk_json_fixed(f, (double)lk_history_ns(h, h->to_t) / 1e9, 9);
	putc(']', f);
}

int lk_history_cells_json(FILE *f, const struct lk_history *h)
{
	const struct lk_hcells *c = &h->cells;
	times_json(f, h);
	fputs(",\"sites\":[", f);
	for (size_t i = 0; c->slots && i < c->n; i++) {
		const struct lk_hcell *x = &c->slots[i];
		int first = i == 0 || c->slots[i - 1].site != x->site;
		if (first)
			fprintf(f, "%s[%" PRIu32, i ? "],\n" : "\n", x->site);
		if (x->a == LK_HCELL_BEFORE)
			fputs(",-1,", f);
		else
			fprintf(f, ",%u,", x->a);
		if (x->f == LK_HCELL_NEVER)
			fputs("-1", f);
		else
			fprintf(f, "%u", x->f);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, x->count, x->bytes, x->temps);
	}
	fputs(c->n ? "]]}" : "]}", f);
	return ferror(f) ? -EIO : 0;
}
