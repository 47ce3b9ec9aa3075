/* supp_used.c - the suppressions a report used (see supp_used.h). */
#include <errno.h>
#include <stdlib.h>

#include "analyze/supp_used.h"

static int by_bytes(const void *a, const void *b)
{
	const struct lk_supp_use *x = a, *y = b;
	return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : 0;
}

/* The row of pattern in u[0 .. *n), made when it is new. */
static struct lk_supp_use *row(struct lk_supp_use *u, size_t *n, const struct lk_leak *l)
{
	for (size_t i = 0; i < *n; i++)
		if (u[i].pattern == l->suppression)
			return &u[i];
	u[*n] = (struct lk_supp_use){.pattern = l->suppression, .source = l->suppression_source};
	return &u[(*n)++];
}

int lk_supp_used(const struct lk_leak_report *r, struct lk_supp_use **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!r->n_suppressed)
		return 0;
	struct lk_supp_use *u = calloc(r->n_suppressed, sizeof(*u));
	if (!u)
		return -ENOMEM;
	for (size_t i = 0; i < r->n_suppressed; i++) {
		const struct lk_leak *l = &r->suppressed[i];
		if (!l->suppression_source)
			continue;
		struct lk_supp_use *w = row(u, n, l);
		w->objects += l->objects;
		w->bytes += l->bytes;
	}
	qsort(u, *n, sizeof(*u), by_bytes);
	*out = u;
	return 0;
}
