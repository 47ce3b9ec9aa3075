/*
 * history_flame.c - the data of the HTML report's flame graph (report.js
 * draws it): every allocation site's stack, with the numbers a person may
 * want the widths to show, and one table of the distinct frames, so that
 * a frame shared by a thousand stacks is written once.
 *
 *   "flame": {"measures": [[key, title, unit], ...],
 *             "frames": [[function, file, line, module, "0xOFFSET", inlined], ...],
 *             "stacks": [[[values...], [frame, ...], site], ...],   frames outermost first
 *             "other": n}                                     sites left out
 *
 * At most MAX_STACKS sites, those that allocated the most bytes; the
 * others are summed into one stack named "[other sites]".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/history_report.h"
#include "report/html.h"
#include "report/idmap.h"
#include "report/json.h"

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

static void site_values(const struct lk_hist_site *s, uint64_t *v)
{
	v[0] = s->win_bytes;
	v[1] = s->live_bytes;
	v[2] = s->peak_bytes;
	v[3] = s->allocs;
	v[4] = s->bytes_allocated;
	v[5] = s->temporaries;
}

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

static void values_json(FILE *f, const uint64_t *v)
{
	putc('[', f);
	for (size_t k = 0; k < N_MEASURES; k++)
		lk_json_uint(f, k ? ',' : 0, v[k]);
	putc(']', f);
}

static int stacks(FILE *f, const struct lk_history *h, const size_t *idx, size_t n,
		  struct lk_intern *t)
{
	uint64_t other[N_MEASURES] = {0}, v[N_MEASURES];
	size_t written = 0;
	fputs(",\"stacks\":[", f);
	for (size_t i = 0; i < n; i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		site_values(s, v);
		if (i >= MAX_STACKS) {
			for (size_t k = 0; k < N_MEASURES; k++)
				other[k] += v[k];
			continue;
		}
		int err = lk_history_symbolize(h, s);
		if (err)
			return err;
		fputs(written++ ? ",\n[" : "\n[", f);
		values_json(f, v);
		fputs(",[", f);
		for (size_t j = s->n_frames; j-- > 0;) {
			size_t k;
			int rc = lk_intern(t, &s->frames[j], frame_hash(&s->frames[j]), &k);
			if (rc)
				return rc;
			lk_json_uint(f, j + 1 < s->n_frames ? ',' : 0, k);
		}
		fprintf(f, "],%" PRIu32 "]", s->id);
	}
	if (n > MAX_STACKS) {
		fputs(",\n[", f);
		values_json(f, other);
		fputs(",[-1]]", f);
	}
	fprintf(f, "],\"other\":%zu", n > MAX_STACKS ? n - MAX_STACKS : 0);
	return 0;
}

static int frame_table(FILE *f, const struct lk_intern *t)
{
	fputs(",\"frames\":[", f);
	for (size_t i = 0; i < t->n; i++) {
		if (i)
			putc(',', f);
		lk_html_frame_json(f, t->items[i]);
	}
	putc(']', f);
	return 0;
}

int lk_history_flame_json(FILE *f, const struct lk_history *h)
{
	size_t *idx, n;
	int rc = lk_history_rank(h, LK_HIST_BY_BYTES, 0, &idx, &n);
	if (rc)
		return rc;
	struct lk_intern t;
	if ((rc = lk_intern_init(&t, same_frame))) {
		free(idx);
		return rc;
	}
	fputs(",\"flame\":{\"measures\":[", f);
	for (size_t k = 0; k < N_MEASURES; k++) {
		fputs(k ? ",[" : "[", f);
		for (size_t j = 0; j < 3; j++) {
			if (j)
				putc(',', f);
			lk_json_string(f, measures[k][j]);
		}
		putc(']', f);
	}
	putc(']', f);
	rc = stacks(f, h, idx, n, &t);
	if (!rc)
		rc = frame_table(f, &t);
	putc('}', f);
	free(idx);
	lk_intern_release(&t);
	return rc;
}
