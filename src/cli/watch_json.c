/*
 * watch_json.c - the view of `leakscope watch` as the JSON its page reads
 * every second for its header (docs/watch.md): the trace, the program, the
 * time, RSS and live bytes now and at their peak, the growing sites with
 * their first frame and the marks. The charts are the report's (#data).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cli/watch.h"
#include "report/json.h"

static void frame(FILE *out, const char *key, const struct lk_frame_text *f)
{
	fprintf(out, ",\"%s\":", key);
	if (!f) {
		fputs("null", out);
		return;
	}
	fputs("{\"function\":", out);
	lk_json_string(out, f->function);
	fputs(",\"file\":", out);
	lk_json_string(out, f->file);
	fprintf(out, ",\"line\":%d,\"module\":", f->line);
	lk_json_string(out, f->module);
	putc('}', out);
}

static int growing(FILE *out, const struct lk_history *h, const struct lk_watch_view *v)
{
	size_t *idx, n;
	int rc = lk_history_rank(h, LK_HIST_BY_GROWTH, (size_t)v->top, &idx, &n);
	if (rc)
		return rc;
	fprintf(out, ",\"n_growing\":%zu,\"growing\":[", n);
	for (size_t i = 0; i < n && i < (size_t)v->top; i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		if ((rc = lk_history_symbolize(h, s)))
			break;
		const struct lk_band_stats *st = lk_history_site_stats(h, s);
		fprintf(out, "%s{\"site\":%" PRIu32 ",\"slope\":", i ? "," : "", s->id);
		lk_json_fixed(out, st->slope, 1);
		fputs(",\"fit\":", out);
		lk_json_fixed(out, st->fit, 3);
		fprintf(out, ",\"live_bytes\":%" PRIu64 ",\"live_count\":%" PRIu64, s->live_bytes,
			s->live_count);
		frame(out, "frame", s->n_frames ? &s->frames[0] : NULL);
		frame(out, "caller", s->n_frames > 1 ? &s->frames[1] : NULL);
		putc('}', out);
	}
	free(idx);
	putc(']', out);
	return rc;
}

static void names(FILE *out, const struct lk_history *h, const char *key,
		  const struct lk_hist_name *m, size_t n)
{
	fprintf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",{\"t\":" : "{\"t\":", out);
		lk_json_fixed(out, lk_history_seconds(h, m[i].t), 6);
		fputs(",\"text\":", out);
		lk_json_string(out, m[i].text);
		putc('}', out);
	}
	putc(']', out);
}

int lk_watch_json(FILE *out, const struct lk_history *h, const struct lk_watch_view *v)
{
	fputs("{\"trace\":", out);
	lk_json_string(out, v->trace);
	fputs(",\"program\":", out);
	lk_json_string(out, h->program);
	fprintf(out, ",\"pid\":%" PRIu32 ",\"ended\":%s,\"time\":", h->meta.pid,
		v->ended ? "true" : "false");
	lk_json_fixed(out, lk_history_seconds(h, h->t_end), 6);
	fprintf(out, ",\"live_bytes\":%" PRIu64 ",\"peak_bytes\":%" PRIu64 ",\"peak_time\":",
		h->live_bytes, h->peak_bytes);
	lk_json_fixed(out, lk_history_seconds(h, h->peak_t), 6);
	if (h->n_samples_rss)
		fprintf(out, ",\"rss\":%" PRIu64 ",\"rss_peak\":%" PRIu64, h->rss_now, h->rss_peak);
	else
		fputs(",\"rss\":null,\"rss_peak\":null", out);
	fprintf(out, ",\"allocations\":%" PRIu64 ",\"frees\":%" PRIu64, h->allocs, h->frees);
	int rc = growing(out, h, v);
	if (rc)
		return rc;
	names(out, h, "marks", h->marks, h->n_marks);
	names(out, h, "snapshots", h->snapshots, h->n_snapshots);
	fputs("}\n", out);
	return ferror(out) ? -EIO : 0;
}
