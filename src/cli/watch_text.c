/*
 * watch_text.c - the text view of `leakscope watch`: program and time,
 * RSS and live bytes now and at their peak with a sparkline of their last
 * samples, the sites growing fastest (the ranking of the report's
 * "Growing sites") with their first frame, and the marks. On a terminal
 * the screen is drawn again at each refresh, each line cut to its width
 * and the program's texts (command line, marks) kept from sending control
 * characters to it; otherwise each refresh is a block of lines ending
 * with an empty one, and each mark is printed once (a log, a test).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/watch.h"
#include "report/text_frames.h"
#include "report/utf8.h"
#include "report/timeline/timeline_report.h"

#define LABEL_COLS 47    /* "  live  %13s B  peak %13s B  " */
#define MARKS_SHOWN 5    /* on a terminal: the last ones */

static const char *const blocks[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

/* The value of sample j of series b (the current value after the last). */
static double sample(const struct lk_history *h, const struct lk_series_buf *b, size_t j,
		     double now)
{
	if (j >= h->sampler.due)
		return now;
	return b->v && j < b->n ? b->v[j] : 0;
}

/* The last cols samples of b (and now) as unicode blocks, scaled from
 * their smallest to their largest (a sparkline: the shape, not the
 * amount, which the numbers before it say). */
static void sparkline(FILE *out, const struct lk_history *h, const struct lk_series_buf *b,
		      double now, int cols)
{
	size_t n = (size_t)h->sampler.due + 1, first = n > (size_t)cols ? n - (size_t)cols : 0;
	double min = now, max = now;
	for (size_t j = first; j < n; j++) {
		double v = sample(h, b, j, now);
		min = v < min ? v : min;
		max = v > max ? v : max;
	}
	for (size_t j = first; j < n; j++) {
		double v = sample(h, b, j, now);
		int k = max > min ? (int)((v - min) / (max - min) * 7.0 + 0.5) : 0;
		fputs(blocks[k < 0 ? 0 : k > 7 ? 7 : k], out);
	}
}

static void gauge(FILE *out, const struct lk_history *h, const char *name, uint64_t now,
		  uint64_t peak, const struct lk_series_buf *b, const struct lk_watch_view *v)
{
	char a[32], p[32];
	fprintf(out, "  %-5s %13s B  peak %13s B  ", name, lk_grouped(now, a, sizeof(a)),
		lk_grouped(peak, p, sizeof(p)));
	int cols = v->width - LABEL_COLS - 1;   /* the last column left empty: no wrap */
	sparkline(out, h, b, (double)now, cols < 8 ? 8 : cols);
	putc('\n', out);
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path;
}

/* "  SLOPE/s  fit F  live B  FUNCTION FILE:LINE < CALLER" */
static int growing(FILE *out, const struct lk_history *h, const struct lk_watch_view *v)
{
	size_t *idx, n;
	int rc = lk_history_rank(h, LK_HIST_BY_GROWTH, (size_t)v->top, &idx, &n);
	if (rc)
		return rc;
	fprintf(out, "  growing sites (slope of live bytes):%s\n", n ? "" : " none");
	for (size_t i = 0; i < n && i < (size_t)v->top; i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		char a[32], b[32];
		if ((rc = lk_history_symbolize(h, s)))
			break;
		const struct lk_band_stats *st = lk_history_site_stats(h, s);
		fprintf(out, "    %10s/s  fit %.2f  live %s B  ", lk_tltext_bytes(st->slope, a, sizeof(a)),
			st->fit, lk_grouped(s->live_bytes, b, sizeof(b)));
		const struct lk_frame_text *f = s->n_frames ? &s->frames[0] : NULL;
		if (f && f->function)
			fputs(f->function, out);
		else if (f)
			fprintf(out, "%s+0x%" PRIx64, f->module ? f->module : "?", f->offset);
		else
			fputs("(no stack)", out);
		if (f && f->file)
			fprintf(out, " %s:%d", base(f->file), f->line);
		if (s->n_frames > 1 && s->frames[1].function)
			fprintf(out, " < %s", s->frames[1].function);
		putc('\n', out);
	}
	free(idx);
	return rc;
}

/* Marks and snapshots in time order: the i-th of them. */
static void nth_mark(const struct lk_history *h, size_t i, const char **kind,
		     const struct lk_hist_name **m)
{
	size_t a = 0, b = 0;
	for (size_t k = 0;; k++) {
		int snap = a == h->n_marks ||
			   (b < h->n_snapshots && h->snapshots[b].t < h->marks[a].t);
		if (k == i) {
			*kind = snap ? "snapshot" : "mark";
			*m = snap ? &h->snapshots[b] : &h->marks[a];
			return;
		}
		if (snap)
			b++;
		else
			a++;
	}
}

static void marks(FILE *out, const struct lk_history *h, struct lk_watch_view *v)
{
	size_t n = h->n_marks + h->n_snapshots;
	size_t first = v->terminal ? (n > MARKS_SHOWN ? n - MARKS_SHOWN : 0) : v->marks_shown;
	if (v->terminal)
		fprintf(out, "  marks: %zu%s\n", n, n > MARKS_SHOWN ? ", the last ones:" : "");
	for (size_t i = first; i < n; i++) {
		const char *kind;
		const struct lk_hist_name *m;
		nth_mark(h, i, &kind, &m);
		fprintf(out, "  %s %.3f s %s\n", kind, lk_history_seconds(h, m->t), m->text);
	}
	v->marks_shown = n;
}

static int draw(FILE *out, const struct lk_history *h, struct lk_watch_view *v)
{
	fprintf(out, "watch '%s': %s (pid %" PRIu32 "), %.3f s, %s\n", v->trace,
		h->program && *h->program ? h->program : "?", h->meta.pid,
		lk_history_seconds(h, h->t_end), v->ended ? "ended" : "recording");
	if (h->n_samples_rss)
		gauge(out, h, "rss", h->rss_now, h->rss_peak, &h->rss_series, v);
	gauge(out, h, "live", h->live_bytes, h->peak_bytes, &h->total_series, v);
	int rc = growing(out, h, v);
	if (rc)
		return rc;
	marks(out, h, v);
	return 0;
}

/* The lines of text to the terminal from its top-left corner, each cut to
 * cols columns and what is left of the line cleared, then the rest of the
 * screen cleared (no flicker: nothing is cleared before it is drawn
 * again). A control character or invalid UTF-8 is written '?'. */
static void to_screen(FILE *out, const char *text, int cols)
{
	const unsigned char *p = (const unsigned char *)text;
	fputs("\033[H", out);
	while (*p) {
		int col = 0;
		for (; *p && *p != '\n'; col++) {
			int n = lk_utf8_len(p);
			int bad = n == 0 || *p < 0x20 || *p == 0x7f;
			if (col < cols) {
				if (bad)
					putc('?', out);
				else
					fwrite(p, 1, (size_t)n, out);
			}
			p += bad ? 1 : (size_t)n;
		}
		fputs("\033[K\n", out);
		if (*p)
			p++;
	}
	fputs("\033[J", out);
}

int lk_watch_text(FILE *out, const struct lk_history *h, struct lk_watch_view *v)
{
	if (!v->terminal) {
		int rc = draw(out, h, v);
		putc('\n', out);
		return rc ? rc : fflush(out) || ferror(out) ? -EIO : 0;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return -ENOMEM;
	int rc = draw(m, h, v);
	if (fclose(m) && !rc)
		rc = -ENOMEM;
	if (!rc)
		to_screen(out, text, v->width - 1);
	free(text);
	return rc ? rc : fflush(out) || ferror(out) ? -EIO : 0;
}
