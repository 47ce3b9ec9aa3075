/*
 * timeline_diff.c - band-by-band comparison of two timelines (timeline_diff.h).
 * Bands are matched by id through a sorted index of the "after" side.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/timeline_diff.h"


static int by_id(const void *pa, const void *pb)
{
	const struct lk_band *a = *(const struct lk_band *const *)pa;
	const struct lk_band *b = *(const struct lk_band *const *)pb;
	return strcmp(a->id, b->id);
}

static int by_change(const void *pa, const void *pb)
{
	const struct lk_diff_row *a = pa, *b = pb;
	double da = fabs(a->after.integrated - a->before.integrated);
	double db = fabs(b->after.integrated - b->before.integrated);
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->id, b->id);
}

static int add_row(struct lk_timeline_diff *d, const struct lk_band *b, enum lk_diff_side side)
{
	struct lk_diff_row *r = &d->rows[d->n_rows];
	*r = (struct lk_diff_row){.side = side};
	r->id = strdup(b->id);
	r->label = strdup(b->label ? b->label : b->id);
	if (!r->id || !r->label) {
		free(r->id);
		free(r->label);
		return -ENOMEM;
	}
	d->n_rows++;
	return 0;
}

int lk_timeline_diff_compute(const struct lk_timeline *before,
			     const struct lk_timeline *after, struct lk_timeline_diff *d)
{
	*d = (struct lk_timeline_diff){0};
	size_t na = after->n_bands;
	const struct lk_band **idx = malloc((na ? na : 1) * sizeof(*idx));
	char *used = calloc(na ? na : 1, 1);
	d->rows = calloc(before->n_bands + na + 1, sizeof(*d->rows));
	d->before_title = strdup(before->title ? before->title : "before");
	d->after_title = strdup(after->title ? after->title : "after");
	if (!idx || !used || !d->rows || !d->before_title || !d->after_title)
		goto nomem;
	for (size_t i = 0; i < na; i++)
		idx[i] = &after->bands[i];
	qsort(idx, na, sizeof(*idx), by_id);
	for (size_t i = 0; i < before->n_bands; i++) {
		const struct lk_band *b = &before->bands[i];
		const struct lk_band *key = b;
		const struct lk_band **hit = na ? bsearch(&key, idx, na, sizeof(*idx), by_id) : NULL;
		if (add_row(d, b, hit ? LK_DIFF_BOTH : LK_DIFF_BEFORE_ONLY))
			goto nomem;
		d->rows[d->n_rows - 1].before = b->stats;
		if (hit) {
			d->rows[d->n_rows - 1].after = (*hit)->stats;
			used[(size_t)(*hit - after->bands)] = 1;
		}
	}
	for (size_t i = 0; i < na; i++) {
		if (used[i])
			continue;
		if (add_row(d, &after->bands[i], LK_DIFF_AFTER_ONLY))
			goto nomem;
		d->rows[d->n_rows - 1].after = after->bands[i].stats;
	}
	qsort(d->rows, d->n_rows, sizeof(*d->rows), by_change);
	free(idx);
	free(used);
	return 0;
nomem:
	free(idx);
	free(used);
	lk_timeline_diff_release(d);
	return -ENOMEM;
}

void lk_timeline_diff_release(struct lk_timeline_diff *d)
{
	for (size_t i = 0; i < d->n_rows; i++) {
		free(d->rows[i].id);
		free(d->rows[i].label);
	}
	free(d->rows);
	free(d->before_title);
	free(d->after_title);
	*d = (struct lk_timeline_diff){0};
}
