/*
 * heap_timeline.c - the timeline a heap profile reader builds: meta,
 * warnings, bands and the finishing step (heap_timeline.h). Never prints.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventlog/heap_timeline.h"

int lk_heap_timeline_warn(struct lk_timeline *tl, const char *f, ...)
{
	va_list ap;
	char *text;
	va_start(ap, f);
	int n = vasprintf(&text, f, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	char **w = realloc(tl->warnings, (tl->n_warnings + 1) * sizeof(*w));
	if (!w) {
		free(text);
		return -ENOMEM;
	}
	tl->warnings = w;
	w[tl->n_warnings++] = text;
	return 0;
}

int lk_heap_timeline_meta(struct lk_timeline *tl, const char *key, char *value)
{
	if (!value)
		return -ENOMEM;
	for (size_t i = 0; i < tl->n_meta; i++)
		if (strcmp(tl->meta[i].key, key) == 0) {
			free(tl->meta[i].value);
			tl->meta[i] = (struct lk_meta){.key = tl->meta[i].key, .value = value};
			return 0;
		}
	struct lk_meta *m = realloc(tl->meta, (tl->n_meta + 1) * sizeof(*m));
	char *k = strdup(key);
	if (!m || !k) {
		if (m)
			tl->meta = m;
		free(k);
		free(value);
		return -ENOMEM;
	}
	tl->meta = m;
	m[tl->n_meta++] = (struct lk_meta){.key = k, .value = value};
	return 0;
}

int lk_heap_timeline_meta_num(struct lk_timeline *tl, const char *key, const char *name,
			      char *value, int64_t num)
{
	int rc = lk_heap_timeline_meta(tl, key, value);
	for (size_t i = 0; rc == 0 && i < tl->n_meta; i++)
		if (strcmp(tl->meta[i].key, key) == 0) {
			tl->meta[i].name = name;
			tl->meta[i].numeric = 1;
			tl->meta[i].num = num;
		}
	return rc;
}

int lk_heap_timeline_bands(struct lk_timeline *tl, struct lk_census *c,
			   struct lk_band_index *bands)
{
	int rc = lk_census_finish(c);
	if (rc)
		return rc;
	size_t ns = lk_census_points(c), n_bands = bands->n;
	tl->times = malloc((ns ? ns : 1) * sizeof(double));
	tl->bands = calloc(n_bands ? n_bands : 1, sizeof(*tl->bands));
	if (!tl->times || !tl->bands)
		return -ENOMEM;
	for (size_t i = 0; i < ns; i++)
		tl->times[i] = lk_census_time(c, i);
	tl->n_samples = ns;
	for (size_t k = 0; k < n_bands; k++) {
		struct lk_band_name *bb = &bands->names[k];
		char *label = strdup(bb->key);
		if (!label)
			return -ENOMEM;
		tl->bands[k].id = bb->key;
		tl->bands[k].label = label;
		lk_census_stats(c, k, &tl->bands[k].stats);
		bb->key = NULL;
		tl->n_bands++;
	}
	double **values = malloc((n_bands ? n_bands : 1) * sizeof(*values));
	if (!values || lk_census_take_values(c, values, n_bands)) {
		free(values);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n_bands; k++)
		tl->bands[k].values = values[k];
	free(values);
	return 0;
}

static int by_marker(const void *pa, const void *pb)
{
	const struct lk_marker *a = pa, *b = pb;
	return (a->t > b->t) - (a->t < b->t);
}

int lk_heap_timeline_finish(struct lk_timeline *tl, const struct lk_census *c,
			    const char *no_samples)
{
	size_t n = lk_census_count(c), ns = tl->n_samples;
	char censuses[24], points[80];
	int rc;
	if (tl->n_markers > 1)
		qsort(tl->markers, tl->n_markers, sizeof(*tl->markers), by_marker);
	snprintf(censuses, sizeof(censuses), "%zu", n);
	snprintf(points, sizeof(points), "%zu, each the mean of %zu censuses", ns, c->stride);
	if (n && (rc = lk_heap_timeline_meta_num(tl, "censuses", NULL, strdup(censuses),
						 (int64_t)n)))
		return rc;
	if (ns < n && (rc = lk_heap_timeline_meta_num(tl, "points", NULL, strdup(points),
						      (int64_t)ns)))
		return rc;
	if (c->backwards &&
	    (rc = lk_heap_timeline_warn(tl, "census at %.3f s is earlier than the one before "
					"(%.3f s): drawn at that time",
					c->backwards_t, c->backwards_prev)))
		return rc;
	if (ns == 0 && (rc = lk_heap_timeline_warn(tl, "%s", no_samples)))
		return rc;
	lk_timeline_sort(tl);
	return 0;
}
