/*
 * history_flame.c - the flame graph data of a trace's page
 * (report/flame_json.h): every allocation site's stack with the numbers a
 * person may want the widths to show. At most MAX_STACKS sites, those that
 * allocated the most bytes; the others are summed into "[other sites]".
 */
#include <stdlib.h>

#include "report/flame_json.h"
#include "report/trace/history_report.h"

#define MAX_STACKS 10000

static const char *const measures[][3] = {
	{"leaked", "Not freed in the window", "bytes"},
	{"live", "Live at the end", "bytes"},
	{"peak", "Live at the peak", "bytes"},
	{"allocs", "Allocations", "count"},
	{"allocated", "Bytes allocated", "bytes"},
	{"temporary", "Temporary allocations", "count"},
};
#define N_MEASURES (sizeof(measures) / sizeof(measures[0]))

struct ranked {
	const struct lk_history *h;
	const size_t *idx;
};

static int site_stack(void *arg, size_t i, size_t max, struct lk_flame_stack *out)
{
	const struct ranked *r = arg;
	const struct lk_hist_site *s = &r->h->sites[r->idx[i]];
	uint64_t v[N_MEASURES] = {s->win_bytes, s->live_bytes, s->peak_bytes, s->allocs,
				  s->bytes_allocated, s->temporaries};
	for (size_t k = 0; k < N_MEASURES; k++)
		out->values[k] = v[k];
	out->site = s->id;
	if (i >= max)
		return 0;
	int rc = lk_history_symbolize(r->h, s);
	out->frames = s->frames;
	out->n_frames = s->n_frames;
	return rc;
}

int lk_history_flame_json(FILE *f, const struct lk_history *h)
{
	size_t *idx, n;
	int rc = lk_history_rank(h, LK_HIST_BY_BYTES, 0, &idx, &n);
	if (rc)
		return rc;
	struct ranked r = {h, idx};
	rc = lk_flame_json(f, measures, N_MEASURES, n, MAX_STACKS, site_stack, &r);
	free(idx);
	return rc;
}
