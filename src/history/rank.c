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

static double key_of(const struct lk_history *h, const struct lk_hist_site *s,
		     enum lk_hist_key key)
{
	/* the window's growth: a site back to nothing at the window's end (its
	 * blocks live then are the window's leaks and the kept ones) did not
	 * grow, whatever its slope */
	if (key == LK_HIST_BY_GROWTH)
		return s->win_bytes + s->kept_bytes ? lk_history_site_stats(h, s)->slope : 0;
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

static void swap(struct ranked *a, struct ranked *b)
{
	struct ranked t = *a;
	*a = *b;
	*b = t;
}

/* Reorder r[0..n) so that its first m entries are the m first in by_key
 * order (in any order): quickselect, median-of-three pivots. */
static void select_first(struct ranked *r, size_t n, size_t m)
{
	size_t lo = 0, hi = n;        /* the m-th entry is in [lo, hi) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_key(&r[mid], &r[lo]) < 0)
			swap(&r[mid], &r[lo]);
		if (by_key(&r[hi - 1], &r[lo]) < 0)
			swap(&r[hi - 1], &r[lo]);
		if (by_key(&r[hi - 1], &r[mid]) < 0)
			swap(&r[hi - 1], &r[mid]);
		swap(&r[mid], &r[hi - 1]);    /* the median as the pivot, at the end */
		size_t p = lo;
		for (size_t i = lo; i < hi - 1; i++)
			if (by_key(&r[i], &r[hi - 1]) < 0)
				swap(&r[i], &r[p++]);
		swap(&r[p], &r[hi - 1]);
		if (p == m)
			return;
		if (p < m)
			lo = p + 1;
		else
			hi = p;
	}
}

int lk_history_rank(const struct lk_history *h, enum lk_hist_key key, size_t limit,
		    size_t **idx, size_t *n)
{
	struct ranked *r = malloc((h->n_sites ? h->n_sites : 1) * sizeof(*r));   /* r[0 .. k) written */
	size_t k = 0;
	*idx = NULL;
	*n = 0;
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_sites; i++) {
		double v = key_of(h, &h->sites[i], key);
		if (v > 0)
			r[k++] = (struct ranked){.key = v, .i = i};
	}
	size_t m = limit && limit < k ? limit : k;
	if (m < k)
		select_first(r, k, m);
	qsort(r, m, sizeof(*r), by_key);
	*idx = malloc((m ? m : 1) * sizeof(**idx));
	if (!*idx) {
		free(r);
		return -ENOMEM;
	}
	for (size_t j = 0; j < m; j++)
		(*idx)[j] = r[j].i;
	*n = k;
	free(r);
	return 0;
}
