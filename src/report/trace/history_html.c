/*
 * history_html.c - `leakscope report --format html`: the analysis of a
 * trace as the shared self-contained page (report/html.h). Per-site
 * live-bytes timelines become bands of the timeline model (with their
 * allocation stacks), total live bytes and RSS its series, markers and
 * snapshots its markers; the leaks of the window (with the verdicts of
 * the scan at the end, when the window reaches it) and the leak candidates
 * (allocation time vs size of the blocks not freed) go to the page as
 * extra data, drawn by report.js as a table and a scatter chart.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/trace/history_report.h"
#include "report/text_frames.h"
#include "report/html.h"
#include "report/json.h"

#define MAX_BANDS 500     /* sites charted and tabled, by integrated size */
#define MAX_LEAKS 500     /* rows of the leak table */

static char *xdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static char *site_label(const struct lk_hist_site *s)
{
	return lk_html_site_label(s->frames, s->n_frames, s->id);
}

/* A time in ticks as seconds to the nanosecond (what report.js reads). */
static void seconds(FILE *f, const struct lk_history *h, uint64_t t)
{
	lk_json_fixed(f, (double)lk_history_ns(h, t) / 1e9, 9);
}

static int copy_frames(struct lk_band *b, const struct lk_hist_site *s)
{
	b->frames = calloc(s->n_frames ? s->n_frames : 1, sizeof(*b->frames));
	if (!b->frames)
		return -ENOMEM;
	b->n_frames = s->n_frames;
	for (size_t i = 0; i < s->n_frames; i++) {
		b->frames[i] = s->frames[i];
		b->frames[i].function = xdup(s->frames[i].function);
		b->frames[i].file = xdup(s->frames[i].file);
		b->frames[i].module = xdup(s->frames[i].module);
	}
	return 0;
}

/* 1 when the window reaches the trace's end after its last sample: the
 * page gets one more point, at the end, so that what the program freed
 * after the last sample (at exit) shows. */
static size_t tail(const struct lk_history *h)
{
	uint64_t last = h->sampler.due ? h->origin + (uint64_t)(h->sampler.due - 1) * h->sampler.delta : 0;
	return h->opt.to.kind == LK_POINT_END && h->sampler.due && h->to_t > last;
}

static int series(struct lk_timeline *tl, const struct lk_history *h, const char *name,
		  const struct lk_series_buf *b, double end)
{
	struct lk_series *s = &tl->series[tl->n_series++];
	size_t n = h->sampler.due + tail(h);
	s->name = xdup(name);
	s->times = calloc(n ? n : 1, sizeof(double));
	s->values = calloc(n ? n : 1, sizeof(double));
	if (!s->name || !s->times || !s->values)
		return -ENOMEM;
	s->n = n;
	for (size_t j = 0; j < n; j++) {
		s->times[j] = tl->times[j];
		s->values[j] = j == h->sampler.due ? end : b->v && j < b->n ? b->v[j] : 0;
	}
	return 0;
}

/* A site in the order of the charted bands (lk_band_order). */
struct pick {
	const struct lk_band_stats *stats;  /* the site's, cached in h */
	char id[20];                        /* "site N", as its band's */
	size_t site;
};

static int by_size(const void *pa, const void *pb)
{
	const struct pick *a = pa, *b = pb;
	return lk_band_order(a->stats, a->id, b->stats, b->id);
}

/* The MAX_BANDS sites of largest integrated size, chosen from their cached
 * statistics before any band is made: a trace of thousands of sites made
 * each a timeline of a thousand values and a label, to keep 500. */
static int top_sites(const struct lk_history *h, struct pick **out, size_t *n_out)
{
	size_t *idx, n;
	int rc = lk_history_rank(h, LK_HIST_BY_BYTES, 0, &idx, &n);
	if (rc)
		return rc;
	struct pick *p = malloc((n ? n : 1) * sizeof(*p));
	if (!p) {
		free(idx);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		p[i] = (struct pick){lk_history_site_stats(h, s), "", idx[i]};
		snprintf(p[i].id, sizeof(p[i].id), "site %" PRIu32, s->id);
	}
	free(idx);
	if (n > MAX_BANDS) {
		qsort(p, n, sizeof(*p), by_size);
		n = MAX_BANDS;
	}
	*out = p;
	*n_out = n;
	return 0;
}

/* Site i's live bytes at the page's points (its value at the end last). */
static double *site_values(const struct lk_history *h, size_t i)
{
	double *v = lk_history_site_values(h, i), *w;
	if (!v || !tail(h))
		return v;
	if (!(w = realloc(v, (h->sampler.due + 1) * sizeof(*v)))) {
		free(v);
		return NULL;
	}
	w[h->sampler.due] = (double)h->sites[i].live_bytes;
	return w;
}

static int bands(struct lk_timeline *tl, const struct lk_history *h)
{
	struct pick *p;
	size_t n;
	int rc = top_sites(h, &p, &n);
	if (rc)
		return rc;
	tl->bands = calloc(n ? n : 1, sizeof(*tl->bands));
	if (!tl->bands) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct lk_hist_site *s = &h->sites[p[i].site];
		struct lk_band *b = &tl->bands[tl->n_bands++];
		if ((rc = lk_history_symbolize(h, s)))
			break;
		b->id = strdup(p[i].id);
		b->label = site_label(s);
		b->values = site_values(h, p[i].site);
		b->stats = *lk_history_site_stats(h, s);
		if (!b->id || !b->label || !b->values)
			rc = -ENOMEM;
		else
			rc = copy_frames(b, s);
	}
	free(p);
	if (rc == 0)
		lk_timeline_sort(tl);
	return rc;
}

static int markers(struct lk_timeline *tl, const struct lk_history *h)
{
	tl->markers = calloc(h->n_marks + h->n_snapshots + 1, sizeof(*tl->markers));
	if (!tl->markers)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_marks; i++) {
		tl->markers[tl->n_markers].t = lk_history_seconds(h, h->marks[i].t);
		if (!(tl->markers[tl->n_markers++].text = xdup(h->marks[i].text)))
			return -ENOMEM;
	}
	for (size_t i = 0; i < h->n_snapshots; i++) {
		tl->markers[tl->n_markers].t = lk_history_seconds(h, h->snapshots[i].t);
		if (!(tl->markers[tl->n_markers++].text = lk_html_fmt("snapshot %s", h->snapshots[i].text)))
			return -ENOMEM;
	}
	return 0;
}

static int build(struct lk_timeline *tl, const struct lk_history *h, const struct lk_history_view *v)
{
	char b1[32];
	size_t n = h->sampler.due + tail(h);
	memset(tl, 0, sizeof(*tl));
	tl->title = xdup(h->program && *h->program ? h->program : v->trace);
	tl->meta = calloc(8, sizeof(*tl->meta));
	tl->times = calloc(n ? n : 1, sizeof(double));
	tl->series = calloc(2, sizeof(*tl->series));
	tl->warnings = calloc(h->n_warnings + 1, sizeof(char *));
	if (!tl->title || !tl->meta || !tl->times || !tl->series || !tl->warnings)
		return -ENOMEM;
	memcpy(tl->times, h->times, h->sampler.due * sizeof(double));
	if (tail(h))
		tl->times[n - 1] = lk_history_seconds(h, h->to_t);
	tl->n_samples = n;
	for (size_t i = 0; i < h->n_warnings; i++)
		if (!(tl->warnings[tl->n_warnings++] = xdup(h->warnings[i])))
			return -ENOMEM;
	int rc;
	if ((rc = lk_html_meta(tl, "trace", xdup(v->trace))) ||
	    (rc = lk_html_meta(tl, "pid", lk_html_fmt("%" PRIu32, h->meta.pid))) ||
	    (rc = lk_html_meta(tl, "events", lk_html_fmt("%s", lk_grouped(h->events, b1, sizeof(b1))))) ||
	    (rc = lk_html_meta(tl, "peak live",
			       lk_html_fmt("%s B at %.6g s", lk_grouped(h->peak_bytes, b1, sizeof(b1)),
					   lk_history_seconds(h, h->peak_t)))) ||
	    (rc = lk_html_meta(tl, "window",
			       lk_html_fmt("%.6g s .. %.6g s", lk_history_seconds(h, h->from_t),
					   lk_history_seconds(h, h->to_t)))) ||
	    (rc = lk_html_meta(tl, "not freed",
			       lk_html_fmt("%s B in %" PRIu64 " objects",
					   lk_grouped(h->win_bytes, b1, sizeof(b1)), h->win_count))))
		return rc;
	if ((h->opt.size_min || h->opt.size_max) &&
	    (rc = lk_html_meta(tl, "size filter",
			       lk_html_fmt("%" PRIu64 "..%" PRIu64 " B", h->opt.size_min, h->opt.size_max))))
		return rc;
	if ((rc = series(tl, h, "live bytes", &h->total_series, (double)h->live_bytes)))
		return rc;
	if (h->n_samples_rss && (rc = series(tl, h, "rss", &h->rss_series, (double)h->rss_now)))
		return rc;
	if ((rc = markers(tl, h)))
		return rc;
	return bands(tl, h);
}

/* The verdicts of the leaks at the end: "verdicts": {scanned, note,
 * classes: {class: [bytes, objects]}, suppressed: [bytes, objects],
 * groups: [[site, class or "suppressed", bytes, objects], ...]}, or
 * nothing when the window ends before the trace. */
static void verdicts(FILE *f, const struct lk_leak_report *r)
{
	if (!r)
		return;
	fprintf(f, ",\"verdicts\":{\"scanned\":%s,\"note\":", r->scanned ? "true" : "false");
	lk_json_string(f, r->scan_note);
	fputs(",\"classes\":{", f);
	for (int c = 0; c < LK_CLASS_COUNT; c++)
		fprintf(f, "%s\"%s\":[%" PRIu64 ",%" PRIu64 "]", c ? "," : "", lk_leak_class_id(c),
			r->class_bytes[c], r->class_objects[c]);
	fprintf(f, "},\"suppressed\":[%" PRIu64 ",%" PRIu64 "],\"groups\":[", r->suppressed_bytes,
		r->suppressed_objects);
	for (size_t i = 0; i < r->n_leaks + r->n_suppressed; i++) {
		int sup = i >= r->n_leaks;
		const struct lk_leak *l = sup ? &r->suppressed[i - r->n_leaks] : &r->leaks[i];
		fprintf(f, "%s[%" PRIu32 ",\"%s\",%" PRIu64 ",%" PRIu64 "]", i ? "," : "", l->stack,
			sup ? "suppressed" : lk_leak_class_id(l->cls), l->bytes, l->objects);
	}
	fputs("]}", f);
}

/* "summary": the whole trace's numbers for the page's Summary tab. */
static void summary(FILE *f, const struct lk_history *h)
{
	fprintf(f, ",\"summary\":{\"peak\":%" PRIu64 ",\"peakT\":", h->peak_bytes);
	seconds(f, h, h->peak_t);
	fprintf(f, ",\"final\":%" PRIu64 ",\"finalN\":%" PRIu64 ",\"leaked\":%" PRIu64
		",\"leakedN\":%" PRIu64 ",\"allocs\":%" PRIu64 ",\"frees\":%" PRIu64
		",\"bytes\":%" PRIu64 ",\"temporaries\":%" PRIu64 ",\"rssPeak\":",
		h->final_bytes, h->final_count, h->win_bytes, h->win_count, h->allocs, h->frees,
		h->bytes_allocated, h->temporaries);
	if (h->n_samples_rss)
		fprintf(f, "%" PRIu64, h->rss_peak);
	else
		fputs("null", f);
	fputs(",\"rssPeakT\":", f);
	seconds(f, h, h->rss_peak_t);
	putc('}', f);
}

struct extra_data {
	const struct lk_history *h;
	const struct lk_leak_report *leaks;
};

/* "leaks": [{b, n, t0, t1, label, f, site}], "candidates": {blocks, sites, points},
 * "sizes": [[class, min, max, allocations, bytes, live blocks, live bytes,
 * blocks and bytes not freed in the window]] per size class, "flame"
 * (history_flame.c). */
static int extra(FILE *f, void *arg)
{
	const struct extra_data *d = arg;
	const struct lk_history *h = d->h;
	size_t *idx, n;
	int rc = lk_history_rank(h, LK_HIST_BY_LEAK, 0, &idx, &n);
	if (rc)
		return rc;
	uint32_t *rank = calloc(h->n_sites ? h->n_sites : 1, sizeof(*rank));
	for (size_t i = 0; i < n && i < MAX_LEAKS && rank && !rc; i++)
		rc = lk_history_symbolize(h, &h->sites[idx[i]]);
	if (!rank || rc) {
		free(rank);
		free(idx);
		return rc ? rc : -ENOMEM;
	}
	fputs(",\"leaks\":[", f);
	for (size_t i = 0; i < n; i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		rank[idx[i]] = (uint32_t)i;
		if (i >= MAX_LEAKS)
			continue;
		char *label = site_label(s);
		fprintf(f, "%s{\"b\":%" PRIu64 ",\"n\":%" PRIu64 ",\"t0\":", i ? ",\n" : "", s->win_bytes,
			s->win_count);
		seconds(f, h, s->win_first);
		fputs(",\"t1\":", f);
		seconds(f, h, s->win_last);
		fputs(",\"label\":", f);
		lk_json_string(f, label ? label : "?");
		fputs(",\"f\":", f);
		lk_html_frames_json(f, s->frames, s->n_frames);
		fprintf(f, ",\"site\":%" PRIu32 "}", s->id);
		free(label);
	}
	fprintf(f, "],\"leaksTotal\":{\"b\":%" PRIu64 ",\"n\":%" PRIu64 ",\"groups\":%zu}",
		h->win_bytes, h->win_count, n);
	verdicts(f, d->leaks);
	summary(f, h);
	fprintf(f, ",\"candidates\":{\"blocks\":%" PRIu64 ",\"points\":[", h->win_count);
	for (size_t i = 0; i < h->n_candidates; i++) {
		const struct lk_hist_candidate *c = &h->candidates[i];
		fputs(i ? ",[" : "[", f);
		seconds(f, h, c->t);
		lk_json_uint(f, ',', c->size);
		lk_json_uint(f, ',', rank[c->site]);
		putc(']', f);
	}
	fputs("]}", f);
	free(rank);
	free(idx);
	fputs(",\"sizes\":[", f);
	int first = 1;
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++) {
		const struct lk_hist_size_class *k = &h->sizes[c];
		if (!k->allocs)
			continue;
		fprintf(f, "%s[%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 "]", first ? "" : ",", c, lk_hist_size_class_min(c),
			lk_hist_size_class_max(c), k->allocs, k->bytes, k->live_count, k->live_bytes,
			k->win_count, k->win_bytes);
		first = 0;
	}
	putc(']', f);
	if (h->opt.cells && (rc = lk_history_cells_json(f, h)))
		return rc;
	return lk_history_flame_json(f, h);
}

int lk_history_write_html(const struct lk_history *h, const struct lk_history_view *v, FILE *out)
{
	struct lk_timeline tl;
	int rc = build(&tl, h, v);
	if (rc == 0) {
		struct extra_data d = {h, v->leaks};
		struct lk_html_extra x = {.write = extra, .arg = &d, .script = v->script};
		rc = lk_timeline_write_html_extra(&tl, &x, out);
	}
	lk_timeline_release(&tl);
	return rc;
}
