/*
 * timeline_diff.c - band-by-band comparison of two timelines (timeline_diff.h).
 * Which band is which comes from band_match.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/band_match.h"
#include "analyze/timeline_diff.h"

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

/* The after band of a row matched under another id or label. */
static int set_after_name(struct lk_diff_row *r, const struct lk_band *a)
{
	const char *label = a->label ? a->label : a->id;
	if (strcmp(r->id, a->id) == 0 && strcmp(r->label, label) == 0)
		return 0;
	r->after_id = strdup(a->id);
	r->after_label = strdup(label);
	return r->after_id && r->after_label ? 0 : -ENOMEM;
}

int lk_timeline_diff_compute(const struct lk_timeline *before,
			     const struct lk_timeline *after, struct lk_timeline_diff *d)
{
	*d = (struct lk_timeline_diff){0};
	size_t na = after->n_bands, nb = before->n_bands;
	long *match = malloc((nb ? nb : 1) * sizeof(*match));
	char *used = calloc(na ? na : 1, 1);
	d->rows = calloc(nb + na + 1, sizeof(*d->rows));
	d->before_title = strdup(before->title ? before->title : "before");
	d->after_title = strdup(after->title ? after->title : "after");
	if (!match || !used || !d->rows || !d->before_title || !d->after_title ||
	    lk_band_match(before, after, match))
		goto nomem;
	for (size_t i = 0; i < nb; i++) {
		const struct lk_band *b = &before->bands[i];
		if (add_row(d, b, match[i] >= 0 ? LK_DIFF_BOTH : LK_DIFF_BEFORE_ONLY))
			goto nomem;
		struct lk_diff_row *r = &d->rows[d->n_rows - 1];
		r->before = b->stats;
		if (match[i] >= 0) {
			const struct lk_band *a = &after->bands[match[i]];
			r->after = a->stats;
			used[match[i]] = 1;
			if (set_after_name(r, a))
				goto nomem;
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
	free(match);
	free(used);
	return 0;
nomem:
	free(match);
	free(used);
	lk_timeline_diff_release(d);
	return -ENOMEM;
}

void lk_timeline_diff_release(struct lk_timeline_diff *d)
{
	for (size_t i = 0; i < d->n_rows; i++) {
		free(d->rows[i].id);
		free(d->rows[i].label);
		free(d->rows[i].after_id);
		free(d->rows[i].after_label);
	}
	free(d->rows);
	free(d->before_title);
	free(d->after_title);
	*d = (struct lk_timeline_diff){0};
}
