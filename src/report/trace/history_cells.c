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
 *             "sizes": [[class, a, f, blocks, bytes, a, f, ...], ...]}
 *
 * one array per site, its cells by allocation interval a (-1: before the
 * window) then free interval f (-1: not freed when the window ended);
 * temporary: how many of the blocks were temporary allocations; one array
 * per size class (history.h: class c holds the sizes of bit length c) of
 * every block, whatever the size filter, its cells the same way;
 *
 *             "spans": [[seconds, size, site, a, f], ...]
 *
 * the blocks that outlived the interval of their allocation (an even
 * sample, history/spans.h): the leak candidates of any window.
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

/* "key":[[site or class, a, f, blocks, bytes(, temporary), a, ...], ...] */
static void cells_json(FILE *f, const char *key, const struct lk_hcells *c, int temps)
{
	fprintf(f, ",\"%s\":[", key);
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
		fprintf(f, ",%" PRIu64 ",%" PRIu64, x->count, x->bytes);
		if (temps)
			fprintf(f, ",%" PRIu64, x->temps);
	}
	fputs(c->n ? "]]" : "]", f);
}

/* "spans": [[seconds, size, site, a, f], ...] (history/spans.h), and
 * "spansSampled": true when they are an even sample; nothing when the
 * trace could not give the times of the blocks freed. */
static void spans_json(FILE *f, const struct lk_history *h)
{
	const struct lk_hspans *s = &h->spans;
	if (!s->v)
		return;
	fputs(",\"spans\":[", f);
	for (size_t i = 0; i < s->n; i++) {
		const struct lk_hspan *x = &s->v[i];
		fputs(i ? ",\n[" : "\n[", f);
		lk_json_fixed(f, (double)lk_history_ns(h, x->t) / 1e9, 9);
		fprintf(f, ",%" PRIu64 ",%" PRIu32 ",%u,", x->size, x->site, x->a);
		if (x->f == LK_HCELL_NEVER)
			fputs("-1]", f);
		else
			fprintf(f, "%u]", x->f);
	}
	fprintf(f, "],\"spansSampled\":%s", s->stride > 1 ? "true" : "false");
}

int lk_history_cells_json(FILE *f, const struct lk_history *h)
{
	times_json(f, h);
	cells_json(f, "sites", &h->cells, 1);
	cells_json(f, "sizes", &h->size_cells, 0);
	spans_json(f, h);
	putc('}', f);
	return ferror(f) ? -EIO : 0;
}
