/* flame_json.c - stacks with values as the page's flame data (flame_json.h). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "report/flame_json.h"
#include "report/html.h"
#include "report/idmap.h"
#include "report/json.h"

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int same_frame(const void *pa, const void *pb)
{
	const struct lk_frame_text *a = pa, *b = pb;
	return same_text(a->function, b->function) && same_text(a->file, b->file) &&
	       same_text(a->module, b->module) && a->line == b->line && a->inlined == b->inlined &&
	       (a->function || a->offset == b->offset);
}

static uint64_t frame_hash(const struct lk_frame_text *f)
{
	uint64_t h = lk_idmap_hash_string(0, f->function);
	h = lk_idmap_hash_string(h, f->file);
	h = lk_idmap_hash_string(h, f->module);
	h ^= (uint64_t)(uint32_t)f->line << 1 ^ (uint64_t)(f->inlined != 0);
	return f->function ? h : h ^ f->offset * 0x9e3779b97f4a7c15ull;
}

static void values_json(FILE *f, const uint64_t *v, size_t n)
{
	putc('[', f);
	for (size_t k = 0; k < n; k++)
		lk_json_uint(f, k ? ',' : 0, v[k]);
	putc(']', f);
}

static int stack_json(FILE *f, const struct lk_flame_stack *s, size_t nm, struct lk_intern *t,
		      int first)
{
	fputs(first ? "\n[" : ",\n[", f);
	values_json(f, s->values, nm);
	fputs(",[", f);
	for (size_t j = s->n_frames; j-- > 0;) {
		size_t k;
		int rc = lk_intern(t, &s->frames[j], frame_hash(&s->frames[j]), &k);
		if (rc)
			return rc;
		lk_json_uint(f, j + 1 < s->n_frames ? ',' : 0, k);
	}
	fprintf(f, "],%" PRIu32 "]", s->site);
	return 0;
}

static int stacks(FILE *f, size_t nm, size_t n, size_t max, lk_flame_get get, void *arg,
		  struct lk_intern *t)
{
	uint64_t other[LK_FLAME_MEASURES_MAX] = {0};
	fputs(",\"stacks\":[", f);
	for (size_t i = 0; i < n; i++) {
		struct lk_flame_stack s;
		memset(&s, 0, sizeof(s));
		int rc = get(arg, i, max, &s);
		if (!rc && i < max)
			rc = stack_json(f, &s, nm, t, i == 0);
		if (rc)
			return rc;
		for (size_t k = 0; i >= max && k < nm; k++)
			other[k] += s.values[k];
	}
	if (n > max) {
		fputs(",\n[", f);
		values_json(f, other, nm);
		fputs(",[-1]]", f);
	}
	fprintf(f, "],\"other\":%zu", n > max ? n - max : 0);
	return 0;
}

int lk_flame_json(FILE *f, const char *const measures[][3], size_t n_measures, size_t n,
		  size_t max, lk_flame_get get, void *arg)
{
	struct lk_intern t;
	if (n_measures > LK_FLAME_MEASURES_MAX)
		return -EINVAL;
	int rc = lk_intern_init(&t, same_frame);
	if (rc)
		return rc;
	fputs(",\"flame\":{\"measures\":[", f);
	for (size_t k = 0; k < n_measures; k++) {
		fputs(k ? ",[" : "[", f);
		for (size_t j = 0; j < 3; j++) {
			if (j)
				putc(',', f);
			lk_json_string(f, measures[k][j]);
		}
		putc(']', f);
	}
	putc(']', f);
	rc = stacks(f, n_measures, n, max, get, arg, &t);
	if (!rc) {
		fputs(",\"frames\":[", f);
		for (size_t i = 0; i < t.n; i++) {
			if (i)
				putc(',', f);
			lk_html_frame_json(f, t.items[i]);
		}
		putc(']', f);
	}
	putc('}', f);
	lk_intern_release(&t);
	return rc;
}
