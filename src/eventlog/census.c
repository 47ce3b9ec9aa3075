/*
 * census.c - band values over censuses in bounded memory (census.h).
 *
 * A slot holds one row of values indexed by band, as wide as the number of
 * bands when it was last written (later bands are 0 there): a census
 * writes to one row, not to one array per band. A census that mentions
 * few of the bands only visits those and those of the census before (to
 * close them at 0); one that mentions many is added in one pass over all
 * (analyze/band_sums.h). Pure computation: no I/O.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "eventlog/census.h"
#include "common/array.h"

/* Censuses [i * stride, (i + 1) * stride) of the run, summed. */
struct lk_census_slot {
	double t, n;      /* sum of census times; censuses */
	double *v;        /* sum of values by band, [0..w); 0 beyond */
	size_t w;
};

/* Make a slot at least w bands wide. */
static int widen(struct lk_census_slot *sl, size_t w)
{
	if (sl->w >= w)
		return 0;
	if (lk_array_grow_zeroed(&sl->v, sizeof(double), sl->w, w))
		return -ENOMEM;
	sl->w = w;
	return 0;
}

/* Slots full: merge neighbours, values and times alike. */
static int merge_slots(struct lk_census *c)
{
	struct lk_census_slot *sl = c->slots;
	for (size_t i = 0; 2 * i < c->n_slots; i++) {
		struct lk_census_slot x = sl[2 * i], y = sl[2 * i + 1];
		if (widen(&x, y.w)) {
			sl[2 * i] = x;
			return -ENOMEM;
		}
		for (size_t k = 0; k < y.w; k++)
			x.v[k] += y.v[k];
		free(y.v);
		sl[2 * i + 1] = (struct lk_census_slot){0};
		x.t += y.t;
		x.n += y.n;
		sl[2 * i] = (struct lk_census_slot){0};
		sl[i] = x;
	}
	c->n_slots = (c->n_slots + 1) / 2;  /* odd: the last pairs with an empty slot */
	c->stride *= 2;
	return 0;
}

struct slot_order { double t; size_t i; };

static int by_slot_time(const void *pa, const void *pb)
{
	const struct slot_order *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* The sums again from the slots' exact values, in time order (every slot
 * holds one census); `active` the bands not 0 at the last one. */
static int refold(struct lk_census *c)
{
	size_t n = c->sums.n, ns = c->n_slots;
	double *v = calloc(n ? n : 1, sizeof(*v));
	if (!v || lk_array_grow(&c->active, &c->cap_active, n, sizeof(size_t), 64)) {
		free(v);
		return -ENOMEM;
	}
	struct lk_band_table *t = &c->sums;
	lk_band_table_reset(t);
	for (size_t i = 0; i < ns; i++) {
		const struct lk_census_slot *sl = &c->slots[i];
		if (sl->w)   /* a census without samples has no row */
			memcpy(v, sl->v, (sl->w < n ? sl->w : n) * sizeof(*v));
		lk_band_table_add_all(t, sl->t, v, NULL);
		lk_band_table_census_done(t, sl->t);
	}
	free(v);
	c->n_active = 0;
	for (size_t k = 0; k < n; k++)
		if (t->last[k] != 0)
			c->active[c->n_active++] = k;
	return 0;
}

/* Censuses came out of time order while every slot still held one census:
 * put the slots in time order and fold the sums again. */
static int refold_sorted(struct lk_census *c)
{
	size_t ns = c->n_slots;
	struct slot_order *ord = malloc((ns ? ns : 1) * sizeof(*ord));
	struct lk_census_slot *tmp = malloc((ns ? ns : 1) * sizeof(*tmp));
	if (!ord || !tmp) {
		free(ord);
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ns; i++)
		ord[i] = (struct slot_order){c->slots[i].t, i};
	qsort(ord, ns, sizeof(*ord), by_slot_time);
	for (size_t i = 0; i < ns; i++)
		tmp[i] = c->slots[ord[i].i];
	memcpy(c->slots, tmp, ns * sizeof(*tmp));
	free(ord);
	free(tmp);
	int rc = refold(c);
	if (rc == 0)
		c->unsorted = 0;
	return rc;
}

/* The points each band may keep, with n bands (census.h). */
static size_t points_max(size_t n)
{
	size_t p = LK_PROFILE_SAMPLES_MAX;
	while (p > LK_PROFILE_SAMPLES_MIN && p * n > LK_PROFILE_VALUES_MAX)
		p /= 2;
	return p;
}

/* The slot of the open census, merging when full (again if bands came
 * that leave room for fewer points); its time, in order. */
static int next_slot(struct lk_census *c, size_t *slot, double *t)
{
	int rc;
	if (!c->slots) {
		if (!(c->slots = calloc(LK_PROFILE_SAMPLES_MAX, sizeof(*c->slots))))
			return -ENOMEM;
		c->stride = 1;
	}
	const struct lk_census_sums *done = &c->sums.times;
	while (done->n / c->stride >= points_max(c->sums.n))
		if ((c->unsorted && (rc = refold_sorted(c))) || (rc = merge_slots(c)))
			return rc;
	*slot = done->n / c->stride;
	*t = c->open_t;
	if (done->n > 0 && *t < done->t_prev) {
		/* Out of time order: those before the first merge are
		 * sorted; later ones are drawn at the time of the one before. */
		if (c->stride == 1) {
			c->unsorted = 1;
		} else {
			if (!c->backwards) {
				c->backwards_t = *t;
				c->backwards_prev = done->t_prev;
			}
			c->backwards = 1;
			*t = done->t_prev;
		}
	}
	return 0;
}

/* A census whose bands, with those of the census before (which it closes
 * at 0), are at least 1 / DENSE_FRACTION of all bands is added in one pass
 * over all of them: per band, the pass costs about a quarter of adding a
 * band by itself (0.7 against 2.6 ns, 100 MB with 5,000 bands). */
#define DENSE_FRACTION 4

/* The census at t band by band: those it mentions, then those of the
 * census before that it left out (0 at t). */
static void add_touched(struct lk_census *c, double t, double *row)
{
	size_t this = c->sums.times.n + 1;
	for (size_t i = 0; i < c->n_touched; i++) {
		size_t k = c->touched[i];
		lk_band_table_add(&c->sums, t, k, c->cur[k]);
		row[k] += c->cur[k];
		c->cur[k] = 0;
	}
	for (size_t i = 0; i < c->n_active; i++)
		if (c->seen[c->active[i]] != this)
			lk_band_table_add(&c->sums, t, c->active[i], 0);
}

int lk_census_end(struct lk_census *c)
{
	size_t s;
	double t;
	if (!c->open)
		return 0;
	int rc = next_slot(c, &s, &t);
	if (rc)
		return rc;
	struct lk_census_slot *sl = &c->slots[s];
	if (c->n_touched && widen(sl, c->sums.n))
		return -ENOMEM;
	if ((c->n_touched + c->n_active) * DENSE_FRACTION >= c->sums.n)
		lk_band_table_add_all(&c->sums, t, c->cur, c->n_touched ? sl->v : NULL);
	else
		add_touched(c, t, sl->v);
	lk_band_table_census_done(&c->sums, t);
	sl->t += t;
	sl->n += 1;
	c->n_slots = s + 1;
	/* the bands not mentioned are 0 now */
	size_t *swap = c->active, cap = c->cap_active;
	c->active = c->touched, c->cap_active = c->cap_touched;
	c->n_active = c->n_touched;
	c->touched = swap, c->cap_touched = cap;
	c->n_touched = 0;
	c->open = 0;
	return 0;
}

void lk_census_drop(struct lk_census *c)
{
	for (size_t i = 0; i < c->n_touched; i++) {
		c->cur[c->touched[i]] = 0;
		c->seen[c->touched[i]] = 0;
	}
	c->n_touched = 0;
	c->open = 0;
}

int lk_census_begin(struct lk_census *c, double t)
{
	int rc = lk_census_end(c);
	if (rc)
		return rc;
	c->open = 1;
	c->open_t = t;
	return 0;
}

/* Room for bands [0, band]: each band's value at the open census and its
 * sums, the new ones 0. */
static int grow_bands(struct lk_census *c, size_t band)
{
	size_t cap = c->cap_bands ? c->cap_bands : 64;
	while (cap <= band)
		cap *= 2;
	if (cap > c->cap_bands) {
		if (lk_array_grow_zeroed(&c->cur, sizeof(*c->cur), c->cap_bands, cap) ||
		    lk_array_grow_zeroed(&c->seen, sizeof(*c->seen), c->cap_bands, cap))
			return -ENOMEM;
		c->cap_bands = cap;
	}
	return lk_band_table_grow(&c->sums, band + 1);
}

int lk_census_make_room(struct lk_census *c, size_t band)
{
	if (band >= c->sums.n && grow_bands(c, band))
		return -ENOMEM;
	return lk_array_grow(&c->touched, &c->cap_touched, c->n_touched + 1, sizeof(*c->touched),
			     64);
}

int lk_census_finish(struct lk_census *c)
{
	int rc = lk_census_end(c);
	if (rc == 0 && c->unsorted)
		rc = refold_sorted(c);
	return rc;
}

size_t lk_census_count(const struct lk_census *c) { return c->sums.times.n; }
size_t lk_census_points(const struct lk_census *c) { return c->n_slots; }

double lk_census_time(const struct lk_census *c, size_t point)
{
	return c->slots[point].t / c->slots[point].n;
}

/* out[k][i] = the mean value of band k at point i, for k0 <= k < k1 and
 * i0 <= i < i1, row by row. */
static void copy_rows(const struct lk_census *c, double *const *out, size_t k0, size_t k1,
		      size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++) {
		const struct lk_census_slot *sl = &c->slots[i];
		size_t k = k0, kw = sl->w < k1 ? sl->w : k1;
		if (sl->n == 1)  /* a point of one census: no division */
			for (; k < kw; k++)
				out[k][i] = sl->v[k];
		for (; k < kw; k++)
			out[k][i] = sl->v[k] / sl->n;
		for (; k < k1; k++)
			out[k][i] = 0;
	}
}

enum { TILE = 8 };  /* points: a cache line of each band's array */

/* copy_rows() of TILE points of one census each and at least k1 wide,
 * from i: each band's cache line written at once. */
static int copy_tile(const struct lk_census *c, double *const *out, size_t k0, size_t k1,
		     size_t i)
{
	const struct lk_census_slot *sl = &c->slots[i];
	const double *r[TILE];
	for (int j = 0; j < TILE; j++) {
		if (sl[j].n != 1 || sl[j].w < k1)
			return 0;
		r[j] = sl[j].v;
	}
	for (size_t k = k0; k < k1; k++) {
		double *o = out[k] + i;
		for (int j = 0; j < TILE; j++)
			o[j] = r[j][k];
	}
	return 1;
}

/* out[k][i] for k0 <= k < k1 and every point, BLOCK bands at a time (their
 * arrays' lines stay in cache), TILE points at a time where it can. */
static void copy_values(const struct lk_census *c, double *const *out, size_t k0, size_t k1)
{
	enum { BLOCK = 64 };
	for (size_t b0 = k0; b0 < k1; b0 += BLOCK) {
		size_t b1 = k1 - b0 < BLOCK ? k1 : b0 + BLOCK;
		for (size_t i = 0; i < c->n_slots; i += TILE) {
			size_t i1 = c->n_slots - i < TILE ? c->n_slots : i + TILE;
			if (i1 - i < TILE || !copy_tile(c, out, b0, b1, i))
				copy_rows(c, out, b0, b1, i, i1);
		}
	}
}

/* Give back the slot's values of bands w and up (copied out). */
static void narrow(struct lk_census_slot *sl, size_t w)
{
	if (sl->w <= w)
		return;
	if (w == 0) {
		free(sl->v);
		sl->v = NULL;
	} else {
		double *v = realloc(sl->v, w * sizeof(double));
		if (v)
			sl->v = v;
	}
	sl->w = w;
}

/* The arrays made so far, [lo, k) and [hi, n_bands), freed; every out[]
 * NULL. */
static int take_failed(double **out, size_t lo, size_t k, size_t hi, size_t n_bands)
{
	for (size_t j = 0; j < n_bands; j++) {
		if ((j >= lo && j < k) || j >= hi)
			free(out[j]);
		out[j] = NULL;
	}
	return -ENOMEM;
}

int lk_census_take_values(struct lk_census *c, double **out, size_t n_bands)
{
	enum { PARTS = 8 };
	size_t part = (n_bands + PARTS - 1) / PARTS, ns = c->n_slots ? c->n_slots : 1;
	for (size_t hi = n_bands; hi > 0;) {
		size_t lo = hi > part ? hi - part : 0;
		for (size_t k = lo; k < hi; k++)
			if (!(out[k] = malloc(ns * sizeof(double))))
				return take_failed(out, lo, k, hi, n_bands);
		copy_values(c, out, lo, hi);
		for (size_t i = 0; i < c->n_slots; i++)
			narrow(&c->slots[i], lo);
		hi = lo;
	}
	return 0;
}

void lk_census_stats(const struct lk_census *c, size_t band, struct lk_band_stats *out)
{
	lk_band_table_stats(&c->sums, band, out);
}

void lk_census_release(struct lk_census *c)
{
	for (size_t i = 0; c->slots && i < LK_PROFILE_SAMPLES_MAX; i++)
		free(c->slots[i].v);
	free(c->slots);
	lk_band_table_release(&c->sums);
	free(c->cur);
	free(c->seen);
	free(c->touched);
	free(c->active);
	*c = (struct lk_census){0};
}
