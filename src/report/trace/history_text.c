/*
 * history_text.c - `leakscope report` for a person: summary, what was
 * live at the peak, leaks of the window with their allocation times,
 * temporary allocations, top sites, growing sites; frames as in the
 * report of `leakscope run` (function, file:line, module).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/trace/history_report.h"
#include "report/leak/leak_report.h"
#include "report/text_frames.h"
#include "report/timeline/timeline_report.h"

typedef void (*row_fn)(FILE *out, const struct lk_history *h, const struct lk_hist_site *s);

static int section(FILE *out, const struct lk_history *h, const struct lk_history_view *v,
		   const char *title, enum lk_hist_key key, row_fn row)
{
	size_t *idx, n;
	int top = v->top;
	int rc = lk_history_rank(h, key, top > 0 ? (size_t)top : 0, &idx, &n);
	if (rc)
		return rc;
	fprintf(out, "\n%s", title);
	if (top > 0 && n > (size_t)top)
		fprintf(out, " (%d of %zu sites)", top, n);
	fputs(":\n", out);
	if (!n)
		fputs("  none\n", out);
	for (size_t i = 0; i < n && (top <= 0 || i < (size_t)top); i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		if ((rc = lk_history_symbolize(h, s)))
			break;
		row(out, h, s);
		lk_text_frames(out, "      ", s->frames, s->n_frames, &v->style);
	}
	if (!rc && top > 0 && n > (size_t)top)
		lk_text_more_sites(out, "  ", n - (size_t)top, &v->style);
	free(idx);
	return rc;
}

static void row_peak(FILE *out, const struct lk_history *h, const struct lk_hist_site *s)
{
	char b[32];
	fprintf(out, "  %s bytes in %" PRIu64 " object%s live at the peak\n",
		lk_grouped(s->peak_bytes, b, sizeof(b)), s->peak_count, s->peak_count == 1 ? "" : "s");
}

static void row_leak(FILE *out, const struct lk_history *h, const struct lk_hist_site *s)
{
	char b[32];
	fprintf(out, "  %s bytes in %" PRIu64 " object%s not freed, allocated from %.6g s to %.6g s\n",
		lk_grouped(s->win_bytes, b, sizeof(b)), s->win_count, s->win_count == 1 ? "" : "s",
		lk_history_seconds(h, s->win_first), lk_history_seconds(h, s->win_last));
}

static void row_temp(FILE *out, const struct lk_history *h, const struct lk_hist_site *s)
{
	char b[32], c[32];
	fprintf(out, "  %s temporary allocations of %s\n", lk_grouped(s->temporaries, b, sizeof(b)),
		lk_grouped(s->allocs, c, sizeof(c)));
}

static void row_live(FILE *out, const struct lk_history *h, const struct lk_hist_site *s)
{
	char b[32];
	fprintf(out, "  %s bytes in %" PRIu64 " object%s live at the end\n",
		lk_grouped(s->live_bytes, b, sizeof(b)), s->live_count, s->live_count == 1 ? "" : "s");
}

static void row_allocs(FILE *out, const struct lk_history *h, const struct lk_hist_site *s)
{
	char b[32], c[32];
	fprintf(out, "  %s allocations, %s bytes\n", lk_grouped(s->allocs, b, sizeof(b)),
		lk_grouped(s->bytes_allocated, c, sizeof(c)));
}

static void row_growth(FILE *out, const struct lk_history *h, const struct lk_hist_site *s)
{
	char b[32], c[32], d[32];
	const struct lk_band_stats *st = lk_history_site_stats(h, s);
	fprintf(out, "  %s/s, fit %.2f (intercept %s, stddev %s)", lk_tltext_bytes(st->slope, b, sizeof(b)),
		st->fit, lk_tltext_bytes(st->intercept, c, sizeof(c)),
		lk_tltext_bytes(st->stddev, d, sizeof(d)));
	if (h->win_marks >= 2)
		fprintf(out, "; %+.0f B per mark, fit %.2f", s->per_mark, s->per_mark_fit);
	putc('\n', out);
}

static void summary(FILE *out, const struct lk_history *h, const struct lk_history_view *v)
{
	char b[32], c[32];
	fprintf(out, "leakscope report of '%s': %s (pid %" PRIu32 ")\n", v->trace, h->program,
		h->meta.pid);
	for (size_t i = 0; i < h->n_warnings; i++)
		fprintf(out, "warning: %s; the report covers what was read before\n", h->warnings[i]);
	fprintf(out, "  duration           %.6g s\n", lk_history_seconds(h, h->t_end));
	fprintf(out, "  events             %s\n", lk_grouped(h->events, b, sizeof(b)));
	fprintf(out, "  allocations        %s (%s bytes)\n", lk_grouped(h->allocs, b, sizeof(b)),
		lk_grouped(h->bytes_allocated, c, sizeof(c)));
	fprintf(out, "  frees              %s\n", lk_grouped(h->frees, b, sizeof(b)));
	fprintf(out, "  peak live          %s bytes at %.6g s\n", lk_grouped(h->peak_bytes, b, sizeof(b)),
		lk_history_seconds(h, h->peak_t));
	fprintf(out, "  live at the end    %s bytes in %s objects\n",
		lk_grouped(h->final_bytes, b, sizeof(b)), lk_grouped(h->final_count, c, sizeof(c)));
	if (h->n_samples_rss)
		fprintf(out, "  RSS peak           %s bytes at %.6g s\n", lk_grouped(h->rss_peak, b, sizeof(b)),
			lk_history_seconds(h, h->rss_peak_t));
	fprintf(out, "  temporary allocs   %s\n", lk_grouped(h->temporaries, b, sizeof(b)));
	fprintf(out, "  markers            %zu, snapshots %zu\n", h->n_marks, h->n_snapshots);
	if (h->opt.size_min || h->opt.size_max)
		fprintf(out, "  size filter        %" PRIu64 "..%" PRIu64 " bytes (the lists below)\n",
			h->opt.size_min, h->opt.size_max);
}

/* Allocation sizes: per power-of-two class, what was allocated and what is
 * live at the end (the whole heap, whatever --size says). */
static void size_classes(FILE *out, const struct lk_history *h)
{
	char lo[32], hi[32], n[32], b[32], ln[32], lb[32];
	fputs("\nAllocation sizes (the whole heap):\n", out);
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++) {
		const struct lk_hist_size_class *k = &h->sizes[c];
		if (!k->allocs)
			continue;
		fprintf(out, "  %9s - %-9s B %10s allocations (%s B), %s live at the end (%s B)\n",
			lk_grouped(lk_hist_size_class_min(c), lo, sizeof(lo)),
			lk_grouped(lk_hist_size_class_max(c), hi, sizeof(hi)),
			lk_grouped(k->allocs, n, sizeof(n)), lk_grouped(k->bytes, b, sizeof(b)),
			lk_grouped(k->live_count, ln, sizeof(ln)), lk_grouped(k->live_bytes, lb, sizeof(lb)));
	}
}

int lk_history_write_text(const struct lk_history *h, const struct lk_history_view *v, FILE *out)
{
	char b[32], title[512];
	int rc = 0;
	summary(out, h, v);
	if (v->leaks) {
		fprintf(out, "\nLeaks: blocks allocated from %.6g s (%s) and not freed when the "
			"process ended\n", lk_history_seconds(h, h->from_t),
			h->opt.from.spec ? h->opt.from.spec : "start");
		struct lk_leak_text_opts o = {.top = v->top > 0 ? (size_t)v->top : 0,
					      .show_suppressed = v->show_suppressed,
					      .show_reachable = v->show_reachable, .style = v->style};
		lk_leak_write_process_text(out, v->leaks, &o);
	} else {
		snprintf(title, sizeof(title), "Not freed: allocated from %.6g s (%s) to %.6g s "
			 "(%s), still live then: %s bytes in %" PRIu64 " objects",
			 lk_history_seconds(h, h->from_t), h->opt.from.spec ? h->opt.from.spec : "start",
			 lk_history_seconds(h, h->to_t), h->opt.to.spec ? h->opt.to.spec : "end",
			 lk_grouped(h->win_bytes, b, sizeof(b)), h->win_count);
		rc = section(out, h, v, title, LK_HIST_BY_LEAK, row_leak);
	}
	if (rc ||
	    (rc = section(out, h, v, "Live at the peak", LK_HIST_BY_PEAK, row_peak)) ||
	    (rc = section(out, h, v, "Growing sites (slope of live bytes)", LK_HIST_BY_GROWTH, row_growth)) ||
	    (rc = section(out, h, v, "Temporary allocations", LK_HIST_BY_TEMPORARIES, row_temp)) ||
	    (rc = section(out, h, v, "Top sites by live bytes at the end", LK_HIST_BY_LIVE, row_live)) ||
	    (rc = section(out, h, v, "Top sites by allocations", LK_HIST_BY_ALLOCS, row_allocs)) ||
	    (rc = section(out, h, v, "Top sites by bytes allocated", LK_HIST_BY_BYTES, row_allocs)))
		return rc;
	size_classes(out, h);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
