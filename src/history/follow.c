/*
 * follow.c - a trace followed as it grows (follow.h): the history of
 * history.c read chunk by chunk, and finished on a copy of what its end
 * changes (the sites, their timelines, the cells, the spans).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "history/follow.h"
#include "history/pass.h"

int lk_hist_follow_open(struct lk_hist_follow *fw, FILE *f, const struct lk_hist_options *opt)
{
	memset(fw, 0, sizeof(*fw));
	return lk_hist_begin(&fw->h, f, opt, 1, &fw->rd);
}

int lk_hist_follow_feed(struct lk_hist_follow *fw)
{
	if (fw->ended)
		return 0;
	int rc = lk_hist_records(&fw->h, fw->rd);
	free(fw->cut);
	fw->cut = NULL;
	if (rc == LK_ETRUNC) {
		fw->cut_t = lk_trace_reader_good_time(fw->rd);
		return (fw->cut = strdup(lk_error_detail())) ? 0 : -ENOMEM;
	}
	fw->ended = rc == 0;
	return rc;
}

void lk_hist_follow_close(struct lk_hist_follow *fw)
{
	lk_history_release(&fw->h);
	lk_trace_reader_close(fw->rd);
	free(fw->cut);
	memset(fw, 0, sizeof(*fw));
}

/* ---- the snapshot's own copies ------------------------------------------ */

/* *dst: a copy of the size bytes at src (NULL stays NULL). 0 or -ENOMEM. */
static int dup_from(void *dst, const void *src, size_t size)
{
	void *c = NULL;
	if (src && (c = malloc(size ? size : 1)))
		memcpy(c, src, size);
	memcpy(dst, &c, sizeof(c));
	return src && !c ? -ENOMEM : 0;
}

static int dup_series(struct lk_series_buf *to, const struct lk_series_buf *from)
{
	*to = *from;
	return dup_from(&to->v, from->v, from->room * sizeof(*from->v));
}

/* The sites, their state while reading (hot) and their timelines. */
static int dup_sites(struct lk_history *h, const struct lk_history *from)
{
	size_t n = from->n_sites;
	if (!(h->sites = malloc(n * sizeof(*h->sites))))
		return -ENOMEM;
	memcpy(h->sites, from->sites, n * sizeof(*h->sites));
	for (size_t i = 0; i < n; i++) {
		h->sites[i].addrs = NULL;   /* each its own cache, made when asked */
		h->sites[i].frames = NULL;
		h->sites[i].series = (struct lk_series_buf){0};
	}
	h->n_sites = n;
	for (size_t i = 0; i < n; i++)     /* 1.0 traces: the stacks came decoded */
		if (dup_from(&h->sites[i].addrs, from->sites[i].addrs,
			     from->sites[i].n_addrs * sizeof(uint64_t)))
			return -ENOMEM;
	if (!(h->series = calloc(n, sizeof(*h->series))) ||
	    !(h->hot = aligned_alloc(64, n * sizeof(*h->hot))))
		return -ENOMEM;
	memcpy(h->hot, from->hot, n * sizeof(*h->hot));
	for (size_t i = 0; i < n; i++)
		if (dup_series(&h->series[i], &from->series[i]))
			return -ENOMEM;
	return 0;
}

static int dup_warnings(struct lk_history *h, const struct lk_history *from)
{
	if (!from->n_warnings)
		return 0;
	if (!(h->warnings = calloc(from->n_warnings, sizeof(*h->warnings))))
		return -ENOMEM;
	for (; h->n_warnings < from->n_warnings; h->n_warnings++)
		if (!(h->warnings[h->n_warnings] = strdup(from->warnings[h->n_warnings])))
			return -ENOMEM;
	return 0;
}

/* *out: fw's history, owning a copy of what finishing it changes or
 * frees, borrowing the rest. 0 or -ENOMEM (out can be released). */
static int copy_state(const struct lk_hist_follow *fw, struct lk_history *out)
{
	const struct lk_history *h = &fw->h;
	*out = *h;
	out->borrowed = 1;
	/* none of the follower's own: the reading's only, or copied below */
	out->threads = NULL;
	out->chunks = NULL;
	out->n_chunks = out->cap_chunks = 0;
	out->sites = NULL;
	out->n_sites = 0;
	out->hot = NULL;
	out->series = NULL;
	out->warnings = NULL;
	out->n_warnings = 0;
	out->times = NULL;
	out->program = NULL;
	out->total_series.v = out->rss_series.v = NULL;
	out->cells.slots = out->size_cells.slots = NULL;
	out->spans.v = NULL;
	out->candidates = NULL;
	int rc = dup_from(&out->program, h->program, strlen(h->program) + 1);
	rc = rc ? rc : dup_series(&out->total_series, &h->total_series);
	rc = rc ? rc : dup_series(&out->rss_series, &h->rss_series);
	rc = rc ? rc : dup_from(&out->cells.slots, h->cells.slots,
				h->cells.cap * sizeof(*h->cells.slots));
	rc = rc ? rc : dup_from(&out->size_cells.slots, h->size_cells.slots,
				h->size_cells.cap * sizeof(*h->size_cells.slots));
	rc = rc ? rc : dup_from(&out->spans.v, h->spans.v, LK_HSPANS_MAX * sizeof(*h->spans.v));
	rc = rc ? rc : dup_from(&out->candidates, h->candidates,
				LK_HISTORY_SCATTER * sizeof(*h->candidates));
	rc = rc ? rc : dup_warnings(out, h);
	return rc ? rc : dup_sites(out, h);
}

int lk_hist_follow_snapshot(const struct lk_hist_follow *fw, struct lk_history *out)
{
	int rc = copy_state(fw, out);
	if (rc == 0 && fw->cut)
		rc = lk_hist_cut(out, fw->cut, fw->cut_t);
	if (rc == 0)
		rc = lk_hist_end(out, NULL);
	out->peak_log = NULL;    /* read by the end, and the follower's */
	out->peak_log_n = 0;
	return rc;
}
