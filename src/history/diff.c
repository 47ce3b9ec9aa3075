/* diff.c - per-site differences between two points (see diff.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/diff.h"

static int by_change(const void *pa, const void *pb)
{
	const struct lk_tdiff_row *a = pa, *b = pb;
	double x = (double)a->added_bytes - (double)a->removed_bytes;
	double y = (double)b->added_bytes - (double)b->removed_bytes;
	if (x < 0) x = -x;
	if (y < 0) y = -y;
	if (x != y)
		return x > y ? -1 : 1;
	if (a->site_a != b->site_a)
		return a->site_a < b->site_a ? -1 : 1;
	return a->site_b < b->site_b ? -1 : a->site_b > b->site_b;
}

static void totals(struct lk_tdiff *d)
{
	for (size_t i = 0; i < d->n_rows; i++) {
		const struct lk_tdiff_row *r = &d->rows[i];
		d->added_bytes += r->added_bytes;
		d->added_objects += r->added_objects;
		d->removed_bytes += r->removed_bytes;
		d->removed_objects += r->removed_objects;
		d->bytes_a += r->bytes_a;
		d->bytes_b += r->bytes_b;
		d->objects_a += r->objects_a;
		d->objects_b += r->objects_b;
	}
	qsort(d->rows, d->n_rows, sizeof(*d->rows), by_change);
}

/* The totals of h up to its end, the peak's time in ns. */
static void side(const struct lk_history *h, const struct lk_hist_totals *t, struct lk_hist_totals *out)
{
	*out = *t;
	out->peak_t = lk_history_ns(h, t->peak_t);
}

static void side_end(const struct lk_history *h, struct lk_hist_totals *out)
{
	struct lk_hist_totals t = {h->peak_bytes, h->peak_t, h->allocs, h->bytes_allocated,
				   h->temporaries};
	side(h, &t, out);
}

int lk_tdiff_within(const struct lk_history *h, struct lk_tdiff *d)
{
	memset(d, 0, sizeof(*d));
	d->exact = 1;
	side(h, &h->at_from, &d->side_a);
	side_end(h, &d->side_b);
	d->t_a = lk_history_seconds(h, h->from_t);
	d->t_b = lk_history_seconds(h, h->to_t);
	d->ns_a = lk_history_ns(h, h->from_t);
	d->ns_b = lk_history_ns(h, h->to_t);
	d->rows = calloc(h->n_sites ? h->n_sites : 1, sizeof(*d->rows));
	if (!d->rows)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_sites; i++) {
		const struct lk_hist_site *s = &h->sites[i];
		if (!s->from_count && !s->win_count)
			continue;
		int rc = lk_history_symbolize(h, s);
		if (rc)
			return rc;
		d->rows[d->n_rows++] = (struct lk_tdiff_row){
			.frames = s->frames, .n_frames = s->n_frames,
			.site_a = s->id, .site_b = s->id,
			.bytes_a = s->from_bytes, .objects_a = s->from_count,
			.bytes_b = s->win_bytes + s->kept_bytes, .objects_b = s->win_count + s->kept_count,
			.added_bytes = s->win_bytes, .added_objects = s->win_count,
			.removed_bytes = s->from_bytes - s->kept_bytes,
			.removed_objects = s->from_count - s->kept_count,
		};
	}
	totals(d);
	return 0;
}

/* ---- two traces: sites matched by their symbolized stacks ---------------- */

struct keyed {
	char *key;
	const struct lk_hist_site *s;
	int side;                  /* 0: a, 1: b */
};

static char *stack_key(const struct lk_hist_site *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < s->n_frames; i++) {
		const struct lk_frame_text *fr = &s->frames[i];
		if (fr->function)
			fprintf(f, "%s|%s|%d|%s\n", fr->function, fr->file ? fr->file : "",
				fr->file ? fr->line : 0, fr->module ? fr->module : "");
		else
			fprintf(f, "?|%s+0x%llx\n", fr->module ? fr->module : "",
				(unsigned long long)fr->offset);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int by_key(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);
	return c ? c : a->side - b->side;
}

static int collect(const struct lk_history *h, int side, struct keyed *v, size_t *n)
{
	for (size_t i = 0; i < h->n_sites; i++) {
		const struct lk_hist_site *s = &h->sites[i];
		if (!s->win_count)
			continue;
		int rc = lk_history_symbolize(h, s);
		if (rc)
			return rc;
		if (!(v[*n].key = stack_key(s)))
			return -ENOMEM;
		v[*n].s = s;
		v[(*n)++].side = side;
	}
	return 0;
}

static void add_row(struct lk_tdiff *d, const struct keyed *v, size_t from, size_t to)
{
	struct lk_tdiff_row *r = &d->rows[d->n_rows++];
	*r = (struct lk_tdiff_row){.site_a = UINT32_MAX, .site_b = UINT32_MAX};
	for (size_t i = from; i < to; i++) {
		const struct lk_hist_site *s = v[i].s;
		if (!r->frames || (v[i].side == 1 && r->site_b == UINT32_MAX)) {
			r->frames = s->frames;
			r->n_frames = s->n_frames;
		}
		if (v[i].side == 0) {
			if (r->site_a == UINT32_MAX)
				r->site_a = s->id;
			r->bytes_a += s->win_bytes;
			r->objects_a += s->win_count;
		} else {
			if (r->site_b == UINT32_MAX)
				r->site_b = s->id;
			r->bytes_b += s->win_bytes;
			r->objects_b += s->win_count;
		}
	}
	if (r->bytes_b > r->bytes_a)
		r->added_bytes = r->bytes_b - r->bytes_a;
	else
		r->removed_bytes = r->bytes_a - r->bytes_b;
	if (r->objects_b > r->objects_a)
		r->added_objects = r->objects_b - r->objects_a;
	else
		r->removed_objects = r->objects_a - r->objects_b;
}

int lk_tdiff_between(const struct lk_history *a, const struct lk_history *b, struct lk_tdiff *d)
{
	memset(d, 0, sizeof(*d));
	side_end(a, &d->side_a);
	side_end(b, &d->side_b);
	d->t_a = lk_history_seconds(a, a->to_t);
	d->t_b = lk_history_seconds(b, b->to_t);
	d->ns_a = lk_history_ns(a, a->to_t);
	d->ns_b = lk_history_ns(b, b->to_t);
	size_t cap = a->n_sites + b->n_sites, n = 0;
	struct keyed *v = calloc(cap ? cap : 1, sizeof(*v));
	d->rows = calloc(cap ? cap : 1, sizeof(*d->rows));
	int rc = v && d->rows ? 0 : -ENOMEM;
	if (rc == 0 && (rc = collect(a, 0, v, &n)) == 0 && (rc = collect(b, 1, v, &n)) == 0) {
		qsort(v, n, sizeof(*v), by_key);
		for (size_t i = 0, j; i < n; i = j) {
			for (j = i + 1; j < n && strcmp(v[j].key, v[i].key) == 0; j++)
				;
			add_row(d, v, i, j);
		}
		totals(d);
	}
	for (size_t i = 0; v && i < n; i++)
		free(v[i].key);
	free(v);
	return rc;
}

void lk_tdiff_release(struct lk_tdiff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}
