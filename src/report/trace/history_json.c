/*
 * history_json.c - `leakscope report --format json`: the analysis of a
 * trace, schema leakscope-trace-report/2 (docs/json-trace-report.md).
 * Every list holds site objects of the same shape, in its own order.
 * Times are integer nanoseconds since the trace started, bytes integers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "report/trace/history_report.h"
#include "report/leak/leak_report.h"
#include "report/json.h"

static void u64(FILE *out, const char *key, uint64_t v)
{
	fprintf(out, ",\"%s\":%" PRIu64, key, v);
}

/* A time in ticks, as "key":nanoseconds. */
static void ns(FILE *out, const char *key, const struct lk_history *h, uint64_t t)
{
	u64(out, key, lk_history_ns(h, t));
}

static void site_json(FILE *out, const struct lk_history *h, const struct lk_hist_site *s,
		      int with_timeline)
{
	fprintf(out, "{\"site\":%" PRIu32, s->id);
	u64(out, "allocations", s->allocs);
	u64(out, "bytes_allocated", s->bytes_allocated);
	u64(out, "frees", s->frees);
	u64(out, "temporaries", s->temporaries);
	u64(out, "live_bytes", s->live_bytes);
	u64(out, "live_objects", s->live_count);
	u64(out, "peak_bytes", s->peak_bytes);
	u64(out, "peak_objects", s->peak_count);
	u64(out, "leaked_bytes", s->win_bytes);
	u64(out, "leaked_objects", s->win_count);
	if (s->win_count) {
		ns(out, "first_alloc_ns", h, s->win_first);
		ns(out, "last_alloc_ns", h, s->win_last);
	}
	fputs(",\"growth\":", out);
	lk_json_band_stats(out, lk_history_site_stats(h, s));
	fputs(",\"per_mark\":", out);
	if (h->win_marks >= 2) {
		fputs("{\"bytes\":", out);
		lk_json_fixed(out, s->per_mark, LK_JSON_RATE_DECIMALS);
		fputs(",\"fit\":", out);
		lk_json_fixed(out, s->per_mark_fit, LK_JSON_FIT_DECIMALS);
		putc('}', out);
	} else {
		fputs("null", out);
	}
	if (with_timeline) {
		fputs(",\"timeline\":[", out);
		for (uint32_t j = 0; j < h->sampler.due; j++) {
			if (j)
				putc(',', out);
			lk_json_fixed(out, s->series.v && j < s->series.n ? s->series.v[j] : 0,
				      LK_JSON_BYTES_DECIMALS);
		}
		putc(']', out);
	}
	fputs(",\"stack\":", out);
	lk_json_frames(out, s->frames, s->n_frames);
	putc('}', out);
}

static int site_list(FILE *out, const struct lk_history *h, const char *name,
		     enum lk_hist_key key, int top, int with_timeline)
{
	size_t *idx, n;
	int rc = lk_history_rank(h, key, top > 0 ? (size_t)top : 0, &idx, &n);
	if (rc)
		return rc;
	fprintf(out, ",\n\"%s\":[", name);
	for (size_t i = 0; i < n && (top <= 0 || i < (size_t)top) && rc == 0; i++) {
		if ((rc = lk_history_symbolize(h, &h->sites[idx[i]])))
			break;
		fputs(i ? ",\n " : "\n ", out);
		site_json(out, h, &h->sites[idx[i]], with_timeline);
	}
	fputs("]", out);
	free(idx);
	return rc;
}

static void names(FILE *out, const char *key, const char *field,
		  const struct lk_history *h, const struct lk_hist_name *v, size_t n)
{
	fprintf(out, ",\n\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"t_ns\":%" PRIu64 ",\"%s\":", i ? "," : "",
			lk_history_ns(h, v[i].t), field);
		lk_json_string(out, v[i].text);
		putc('}', out);
	}
	putc(']', out);
}

static void point(FILE *out, const char *key, const struct lk_point *p, uint64_t t_ns)
{
	fprintf(out, "\"%s\":{\"point\":", key);
	lk_json_string(out, p->spec);
	u64(out, "t_ns", t_ns);
	putc('}', out);
}

static void header(FILE *out, const struct lk_history *h, const struct lk_history_view *v)
{
	fputs("{\"schema\":\"" LK_TRACE_REPORT_SCHEMA "\",\"trace\":", out);
	lk_json_string(out, v->trace);
	fputs(",\"program\":", out);
	lk_json_string(out, h->program);
	u64(out, "pid", h->meta.pid);
	u64(out, "start_ns", h->meta.start_ns);
	fprintf(out, ",\"format_version\":{\"major\":%u,\"minor\":%u}", h->meta.version,
		h->meta.minor);
	fprintf(out, ",\"truncated\":%s,\"warnings\":[", h->truncated ? "true" : "false");
	for (size_t i = 0; i < h->n_warnings; i++) {
		if (i)
			putc(',', out);
		lk_json_string(out, h->warnings[i]);
	}
	fputs("],\"filter\":", out);
	if (h->opt.size_min || h->opt.size_max)
		fprintf(out, "{\"size_min\":%" PRIu64 ",\"size_max\":%" PRIu64 "}",
			h->opt.size_min, h->opt.size_max);
	else
		fputs("null", out);
	fputs(",\n\"window\":{", out);
	point(out, "from", &h->opt.from, lk_history_ns(h, h->from_t));
	putc(',', out);
	point(out, "to", &h->opt.to, lk_history_ns(h, h->to_t));
	putc('}', out);
}

static void summary(FILE *out, const struct lk_history *h)
{
	fprintf(out, ",\n\"summary\":{\"duration_ns\":%" PRIu64, lk_history_ns(h, h->t_end));
	u64(out, "events", h->events);
	u64(out, "allocations", h->allocs);
	u64(out, "frees", h->frees);
	u64(out, "unmatched_frees", h->unmatched_frees);
	u64(out, "bytes_allocated", h->bytes_allocated);
	u64(out, "peak_live_bytes", h->peak_bytes);
	ns(out, "peak_t_ns", h, h->peak_t);
	u64(out, "final_live_bytes", h->final_bytes);
	u64(out, "final_live_objects", h->final_count);
	if (h->n_samples_rss) {
		u64(out, "rss_peak_bytes", h->rss_peak);
		ns(out, "rss_peak_t_ns", h, h->rss_peak_t);
	} else {
		fputs(",\"rss_peak_bytes\":null,\"rss_peak_t_ns\":null", out);
	}
	u64(out, "temporary_allocations", h->temporaries);
	u64(out, "leaked_bytes", h->win_bytes);
	u64(out, "leaked_objects", h->win_count);
	u64(out, "markers", h->n_marks);
	u64(out, "snapshots", h->n_snapshots);
	putc('}', out);
}

/* "sizes": the size classes that saw an allocation, smallest first, with
 * their numbers in the window. */
static void sizes(FILE *out, const struct lk_history *h)
{
	int first = 1;
	fputs(",\n\"sizes\":[", out);
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++) {
		const struct lk_hist_size_class *k = &h->sizes[c];
		if (!k->allocs)
			continue;
		fprintf(out, "%s{\"min\":%" PRIu64 ",\"max\":%" PRIu64, first ? "" : ",\n",
			lk_hist_size_class_min(c), lk_hist_size_class_max(c));
		u64(out, "allocations", k->allocs);
		u64(out, "bytes", k->bytes);
		u64(out, "live_objects", k->live_count);
		u64(out, "live_bytes", k->live_bytes);
		fprintf(out, ",\"window\":{\"allocations\":%" PRIu64, k->to_allocs - k->from_allocs);
		u64(out, "bytes", k->to_bytes - k->from_bytes);
		u64(out, "live_objects", k->to_live_count);
		u64(out, "live_bytes", k->to_live_bytes);
		u64(out, "leaked_objects", k->win_count);
		u64(out, "leaked_bytes", k->win_bytes);
		fputs("}}", out);
		first = 0;
	}
	putc(']', out);
}

static void candidates(FILE *out, const struct lk_history *h)
{
	fprintf(out, ",\n\"leak_candidates\":{\"blocks\":%" PRIu64 ",\"shown\":%zu,\"points\":[",
		h->win_count, h->n_candidates);
	for (size_t i = 0; i < h->n_candidates; i++) {
		fprintf(out, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu32 "]", i ? "," : "",
			lk_history_ns(h, h->candidates[i].t), h->candidates[i].size,
			h->candidates[i].site);
	}
	fputs("]}", out);
}

int lk_history_write_json(const struct lk_history *h, const struct lk_history_view *v, FILE *out)
{
	static const struct { const char *name; enum lk_hist_key key; } lists[] = {
		{"peak", LK_HIST_BY_PEAK}, {"leaks", LK_HIST_BY_LEAK},
		{"temporary", LK_HIST_BY_TEMPORARIES}, {"top_live", LK_HIST_BY_LIVE},
		{"top_allocations", LK_HIST_BY_ALLOCS}, {"top_allocated_bytes", LK_HIST_BY_BYTES},
		{"growth", LK_HIST_BY_GROWTH},
	};
	int rc;
	header(out, h, v);
	summary(out, h);
	names(out, "markers", "text", h, h->marks, h->n_marks);
	names(out, "snapshots", "name", h, h->snapshots, h->n_snapshots);
	fputs(",\n\"times_ns\":", out);
	lk_json_fixed_array(out, h->times, h->sampler.due, LK_JSON_NS_PER_S, 0);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if ((rc = site_list(out, h, lists[i].name, lists[i].key, v->top,
				    lists[i].key == LK_HIST_BY_GROWTH)))
			return rc;
	sizes(out, h);
	candidates(out, h);
	fputs(",\n\"exit_leaks\":", out);
	if (v->leaks)
		lk_leak_write_process_json(out, v->leaks);
	else
		fputs("null", out);
	fputs("}\n", out);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
