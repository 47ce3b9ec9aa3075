/*
 * tdiff_html.c - `leakscope diff --format html`: what each allocation site
 * added and removed between two points, as the shared self-contained page
 * (report/html.h) without a timeline: the header says the points and the
 * totals; the page's Leaks tab lists the sites that added blocks (live at
 * B and not at A) with their stacks, and its flame graph and trees
 * (report/flame_json.h) draw the stacks by bytes added, removed, live at A
 * or at B; its Summary tab the numbers of each point (live, peak,
 * allocations, temporary allocations up to it) and their differences.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame_json.h"
#include "report/trace/history_report.h"
#include "report/html.h"
#include "report/json.h"

static const char *const measures[][3] = {
	{"added", "Added (live at B, not at A)", "bytes"},
	{"removed", "Removed (live at A, not at B)", "bytes"},
	{"live_a", "Live at A", "bytes"},
	{"live_b", "Live at B", "bytes"},
	{"added_objects", "Blocks added", "count"},
};

static int build(struct lk_timeline *tl, const struct lk_tdiff *d)
{
	memset(tl, 0, sizeof(*tl));
	tl->title = lk_html_fmt("diff %s -> %s", d->a, d->b);
	tl->meta = calloc(5, sizeof(*tl->meta));
	if (!tl->title || !tl->meta)
		return -ENOMEM;
	int rc = lk_html_meta(tl, "A", lk_html_fmt("%s (%.6g s)", d->a, d->t_a));
	if (!rc)
		rc = lk_html_meta(tl, "B", lk_html_fmt("%s (%.6g s)", d->b, d->t_b));
	if (!rc)
		rc = lk_html_meta(tl, "live", lk_html_fmt("%" PRIu64 " B -> %" PRIu64 " B", d->bytes_a, d->bytes_b));
	if (!rc)
		rc = lk_html_meta(tl, "added, removed", lk_html_fmt("%" PRIu64 " B in %" PRIu64 " blocks, %" PRIu64
							" B in %" PRIu64 " blocks", d->added_bytes,
							d->added_objects, d->removed_bytes,
							d->removed_objects));
	if (!rc)
		rc = lk_html_meta(tl, "sites", strdup(d->exact ? "the same trace: exact per block"
					  : "two traces: matched by their symbolized stacks"));
	return rc;
}

static void rows_json(FILE *f, const struct lk_tdiff *d)
{
	size_t k = 0;
	fputs(",\"diff\":true,\"leaks\":[", f);
	for (size_t i = 0; i < d->n_rows; i++) {
		const struct lk_tdiff_row *r = &d->rows[i];
		if (!r->added_objects)
			continue;
		char *label = lk_html_site_label(r->frames, r->n_frames, (uint32_t)i);
		fprintf(f, "%s{\"b\":%" PRIu64 ",\"n\":%" PRIu64 ",\"t0\":null,\"t1\":null,\"label\":",
			k++ ? ",\n" : "", r->added_bytes, r->added_objects);
		lk_json_string(f, label ? label : "?");
		fputs(",\"f\":", f);
		lk_html_frames_json(f, r->frames, r->n_frames);
		fprintf(f, ",\"site\":%zu}", i);
		free(label);
	}
	fprintf(f, "],\"leaksTotal\":{\"b\":%" PRIu64 ",\"n\":%" PRIu64 ",\"groups\":%zu}",
		d->added_bytes, d->added_objects, k);
}

static int row_stack(void *arg, size_t i, size_t max, struct lk_flame_stack *out)
{
	const struct lk_tdiff_row *r = &((const struct lk_tdiff *)arg)->rows[i];
	uint64_t v[] = {r->added_bytes, r->removed_bytes, r->bytes_a, r->bytes_b, r->added_objects};
	(void)max;
	memcpy(out->values, v, sizeof(v));
	out->frames = r->frames;
	out->n_frames = r->n_frames;
	out->site = (uint32_t)i;
	return 0;
}

/* One side of "diffSummary": {live, liveN, peak, peakT, allocs, bytes, temporaries}. */
static void side_json(FILE *f, const char *key, uint64_t live, uint64_t live_n, double t,
		      const struct lk_hist_totals *s)
{
	fprintf(f, "\"%s\":{\"t\":", key);
	lk_json_fixed(f, t, 9);
	fprintf(f, ",\"live\":%" PRIu64 ",\"liveN\":%" PRIu64 ",\"peak\":%" PRIu64 ",\"peakT\":", live,
		live_n, s->peak_bytes);
	lk_json_fixed(f, (double)s->peak_t / 1e9, 9);
	fprintf(f, ",\"allocs\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"temporaries\":%" PRIu64 "}",
		s->allocs, s->bytes_allocated, s->temporaries);
}

/* "diffSummary": each point's numbers and what changed between them, for
 * the page's Summary tab. */
static void summary_json(FILE *f, const struct lk_tdiff *d)
{
	fputs(",\"diffSummary\":{", f);
	side_json(f, "a", d->bytes_a, d->objects_a, d->t_a, &d->side_a);
	putc(',', f);
	side_json(f, "b", d->bytes_b, d->objects_b, d->t_b, &d->side_b);
	fprintf(f, ",\"added\":%" PRIu64 ",\"addedN\":%" PRIu64 ",\"removed\":%" PRIu64
		",\"removedN\":%" PRIu64 ",\"exact\":%s}", d->added_bytes, d->added_objects,
		d->removed_bytes, d->removed_objects, d->exact ? "true" : "false");
}

static int extra(FILE *f, void *arg)
{
	const struct lk_tdiff *d = arg;
	rows_json(f, d);
	summary_json(f, d);
	return lk_flame_json(f, measures, sizeof(measures) / sizeof(measures[0]), d->n_rows,
			     d->n_rows, row_stack, arg);
}

int lk_tdiff_write_html(const struct lk_tdiff *d, FILE *out)
{
	struct lk_timeline tl;
	int rc = build(&tl, d);
	if (rc == 0) {
		struct lk_html_extra x = {.write = extra, .arg = (void *)d};
		rc = lk_timeline_write_html_extra(&tl, &x, out);
	}
	lk_timeline_release(&tl);
	return rc;
}
