/* rank.c - the sites of a history ordered by one of its numbers (history.h). */
#include <errno.h>
#include <stdlib.h>

#include "history/history.h"

uint64_t lk_hist_site_amount(const struct lk_hist_site *s, enum lk_hist_key key)
{
	switch (key) {
	case LK_HIST_BY_LIVE: return s->live_bytes;
	case LK_HIST_BY_ALLOCS: return s->allocs;
	case LK_HIST_BY_BYTES: return s->bytes_allocated;
	case LK_HIST_BY_TEMPORARIES: return s->temporaries;
	case LK_HIST_BY_PEAK: return s->peak_bytes;
	case LK_HIST_BY_LEAK: return s->win_bytes;
	case LK_HIST_BY_GROWTH: break;
	}
	return 0;
}

static double key_of(const struct lk_hist_site *s, enum lk_hist_key key)
{
	/* the window's growth: a site back to nothing at the window's end (its
	 * blocks live then are the window's leaks and the kept ones) did not
	 * grow, whatever its slope */
	if (key == LK_HIST_BY_GROWTH)
		return s->win_bytes + s->kept_bytes ? s->stats.slope : 0;
	return (double)lk_hist_site_amount(s, key);
}

struct ranked {
	double key;
	size_t i;
};

static int by_key(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

int lk_history_rank(const struct lk_history *h, enum lk_hist_key key, size_t **idx, size_t *n)
{
	struct ranked *r = calloc(h->n_sites ? h->n_sites : 1, sizeof(*r));
	size_t k = 0;
	*idx = NULL;
	*n = 0;
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_sites; i++) {
		double v = key_of(&h->sites[i], key);
		if (v > 0)
			r[k++] = (struct ranked){.key = v, .i = i};
	}
	qsort(r, k, sizeof(*r), by_key);
	*idx = malloc((k ? k : 1) * sizeof(**idx));
	if (!*idx) {
		free(r);
		return -ENOMEM;
	}
	for (size_t j = 0; j < k; j++)
		(*idx)[j] = r[j].i;
	*n = k;
	free(r);
	return 0;
}
