/*
 * html.c - the HTML backend: page skeleton, embedded assets, data as JSON.
 *
 * All drawing happens in the browser (report.js); this file decides what
 * the page gets to see, and keeps it small: chart series downsampled to
 * min/max per bucket, band-by-band chart values only for the top bands,
 * a 60-point sparkline string per band. Strings are escaped for the
 * context they land in (JSON inside a <script> element, or HTML text) and
 * invalid UTF-8 becomes U+FFFD, so no input can break out of the page.
 *
 * It only reads the timeline; it never prints and never exits.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/assets.h"
#include "report/html.h"
#include "report/json.h"

/* ---- text ---------------------------------------------------------- */

/*
 * Decode one UTF-8 sequence at s (NUL-terminated). Sets *cp to the code
 * point, or to U+FFFD for a byte that does not start a valid, shortest-form,
 * non-surrogate sequence; returns the bytes consumed (at least 1).
 */
static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
	unsigned char c = s[0];
	uint32_t min, v;
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; v = c & 0x1f; min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; v = c & 0x0f; min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; v = c & 0x07; min = 0x10000;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) { /* also stops at the NUL */
			*cp = 0xfffd;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = v;
	return len;
}

/* HTML text (element content or a quoted attribute value). */
static void html_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	while (*s) {
		uint32_t cp;
		const unsigned char *start = s;
		size_t n = utf8_next(s, &cp);

		s += n;
		switch (cp) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case 0xfffd: fputs("\xef\xbf\xbd", f); break;
		default:
			if (cp < 0x20 || cp == 0x7f)
				putc(' ', f);
			else
				fwrite(start, 1, n, f);
		}
	}
}

/* A JSON number: integers exactly (without printf: they are most of the
 * charts' data), others to `digits` significant digits, null for NaN and
 * infinities (JSON has neither). */
static void json_num(FILE *f, double v, int digits)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == 0)
		fputs(signbit(v) ? "-0" : "0", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		lk_json_fixed(f, v, 0);
	else
		fprintf(f, "%.*g", digits, v);
}

static double finite_or_0(double v)
{
	return isfinite(v) ? v : 0;
}

/* ---- downsampling ---------------------------------------------------- */

/*
 * Pick at most about `limit` indices of 0..n-1 that keep the shape of key[]:
 * all of them when n <= limit, otherwise, for each of limit/2 equal buckets
 * of consecutive indices, the one of the smallest and the one of the largest
 * key, in index order. Returns the count written to idx (sized limit + 2).
 */
static size_t pick_minmax(const double *key, size_t n, size_t limit, size_t *idx)
{
	size_t k = 0, buckets = limit / 2;

	if (n <= limit) {
		for (size_t i = 0; i < n; i++)
			idx[k++] = i;
		return k;
	}
	for (size_t b = 0; b < buckets; b++) {
		size_t lo = b * n / buckets, hi = (b + 1) * n / buckets;
		size_t imin = lo, imax = lo;

		for (size_t i = lo + 1; i < hi; i++) {
			if (key[i] < key[imin])
				imin = i;
			if (key[i] > key[imax])
				imax = i;
		}
		if (imin == imax) {
			idx[k++] = imin;
		} else {
			idx[k++] = imin < imax ? imin : imax;
			idx[k++] = imin < imax ? imax : imin;
		}
	}
	return k;
}

/* The sparkline of values: LK_HTML_SPARK_POINTS bucket maxima (fewer when
 * there are fewer samples), each scaled to 0..63 of the largest and written
 * as one character of a 64-letter alphabet that JSON needs not escape. */
static void write_sparkline(FILE *f, const double *values, size_t n)
{
	static const char abc[] =
		"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
	size_t m = n < LK_HTML_SPARK_POINTS ? n : LK_HTML_SPARK_POINTS;
	double pts[LK_HTML_SPARK_POINTS], top = 0;

	for (size_t b = 0; b < m; b++) {
		size_t lo = b * n / m, hi = (b + 1) * n / m;
		double v = 0;

		for (size_t i = lo; i < hi; i++)
			if (finite_or_0(values[i]) > v)
				v = values[i];
		pts[b] = v;
		if (v > top)
			top = v;
	}
	putc('"', f);
	for (size_t b = 0; b < m; b++)
		putc(abc[top > 0 ? (int)lround(pts[b] / top * 63) : 0], f);
	putc('"', f);
}

/* ---- the JSON document --------------------------------------------- */

static void json_strs(FILE *f, char *const *v, size_t n)
{
	putc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', f);
		lk_json_string(f, v[i]);
	}
	putc(']', f);
}

static void json_nums_at(FILE *f, const double *v, const size_t *idx, size_t k,
			 int digits)
{
	putc('[', f);
	for (size_t j = 0; j < k; j++) {
		if (j)
			putc(',', f);
		json_num(f, v[idx[j]], digits);
	}
	putc(']', f);
}

static int write_series(FILE *f, const struct lk_timeline *tl)
{
	fputs(",\"series\":[", f);
	for (size_t s = 0; s < tl->n_series; s++) {
		const struct lk_series *se = &tl->series[s];
		size_t *idx = calloc(LK_HTML_CHART_POINTS + 2, sizeof(*idx));
		size_t k;

		if (!idx)
			return -ENOMEM;
		k = se->times && se->values ?
			pick_minmax(se->values, se->n, LK_HTML_CHART_POINTS, idx) : 0;
		fputs(s ? ",{\"name\":" : "{\"name\":", f);
		lk_json_string(f, se->name);
		fprintf(f, ",\"n\":%zu,\"t\":", se->n);
		json_nums_at(f, se->times, idx, k, 9);
		fputs(",\"v\":", f);
		json_nums_at(f, se->values, idx, k, 7);
		putc('}', f);
		free(idx);
	}
	putc(']', f);
	return 0;
}

/* Chart data: chosen sample times, then the values there of each top band,
 * of OTHER (all remaining bands summed) and of the total. */
static int write_chart(FILE *f, const struct lk_timeline *tl)
{
	size_t n = tl->n_samples, top = tl->n_bands;
	double *total, *other = NULL;
	size_t *idx, k;

	if (top > LK_HTML_TOP_BANDS)
		top = LK_HTML_TOP_BANDS;
	total = calloc(n ? n : 1, sizeof(*total));
	idx = calloc(LK_HTML_CHART_POINTS + 2, sizeof(*idx));
	if (tl->n_bands > top)
		other = calloc(n ? n : 1, sizeof(*other));
	if (!total || !idx || (tl->n_bands > top && !other)) {
		free(total);
		free(idx);
		free(other);
		return -ENOMEM;
	}
	for (size_t b = 0; b < tl->n_bands; b++) {
		const double *v = tl->bands[b].values;

		if (!v)
			continue;
		for (size_t i = 0; i < n; i++)
			total[i] += finite_or_0(v[i]);
		if (b >= top)
			for (size_t i = 0; i < n; i++)
				other[i] += finite_or_0(v[i]);
	}
	k = tl->times ? pick_minmax(total, n, LK_HTML_CHART_POINTS, idx) : 0;

	fprintf(f, ",\"chart\":{\"top\":%zu,\"t\":", top);
	json_nums_at(f, tl->times, idx, k, 9);
	fputs(",\"bands\":[", f);
	for (size_t b = 0; b < top; b++) {
		const double *v = tl->bands[b].values;

		if (b)
			putc(',', f);
		if (v) {
			json_nums_at(f, v, idx, k, 7);
		} else {
			putc('[', f);
			for (size_t j = 0; j < k; j++)
				fputs(j ? ",0" : "0", f);
			putc(']', f);
		}
	}
	fputs("],\"other\":", f);
	if (other)
		json_nums_at(f, other, idx, k, 7);
	else
		fputs("null", f);
	fputs(",\"total\":", f);
	json_nums_at(f, total, idx, k, 7);
	putc('}', f);
	free(total);
	free(other);
	free(idx);
	return 0;
}

static void write_band(FILE *f, const struct lk_timeline *tl, const struct lk_band *b)
{
	const struct lk_band_stats *st = &b->stats;
	double s[] = { st->integrated, st->peak, st->mean, st->stddev,
		       st->intercept, st->slope, st->fit };

	fputs("{\"id\":", f);
	lk_json_string(f, b->id);
	fputs(",\"label\":", f);
	lk_json_string(f, b->label ? b->label : b->id);
	fputs(",\"s\":[", f);
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		if (i)
			putc(',', f);
		json_num(f, s[i], 6);
	}
	fputs("],\"sp\":", f);
	if (b->values)
		write_sparkline(f, b->values, tl->n_samples);
	else
		fputs("\"\"", f);
	if (tl->n_detail_columns) {
		fputs(",\"d\":", f);
		if (b->details)
			json_strs(f, b->details, tl->n_detail_columns);
		else
			fputs("[]", f);
	}
	if (b->n_frames && b->frames) {
		fputs(",\"f\":", f);
		lk_html_frames_json(f, b->frames, b->n_frames);
	}
	putc('}', f);
}

/* Where the charts' time axis ends: the last census, or a later marker
 * or series point (a marker after the last census is still drawn). */
static double time_end(const struct lk_timeline *tl)
{
	double t = tl->n_samples && tl->times ? tl->times[tl->n_samples - 1] : 0;
	for (size_t i = 0; i < tl->n_markers; i++)
		if (tl->markers[i].t > t)
			t = tl->markers[i].t;
	for (size_t i = 0; i < tl->n_series; i++)
		if (tl->series[i].n && tl->series[i].times[tl->series[i].n - 1] > t)
			t = tl->series[i].times[tl->series[i].n - 1];
	return t;
}

static int write_data(FILE *f, const struct lk_timeline *tl, const struct lk_html_extra *x)
{
	int rc;

	fputs("{\"schema\":1,\"generator\":\"leakscope\",\"title\":", f);
	lk_json_string(f, tl->title);
	fputs(",\"meta\":[", f);
	for (size_t i = 0; i < tl->n_meta; i++) {
		fputs(i ? ",[" : "[", f);
		lk_json_string(f, tl->meta[i].key);
		putc(',', f);
		lk_json_string(f, tl->meta[i].value);
		putc(']', f);
	}
	fputs("],\"warnings\":", f);
	json_strs(f, tl->warnings, tl->n_warnings);
	fprintf(f, ",\"nSamples\":%zu,\"nBands\":%zu,\"t0\":", tl->n_samples, tl->n_bands);
	json_num(f, tl->n_samples && tl->times ? tl->times[0] : 0, 9);
	fputs(",\"t1\":", f);
	json_num(f, time_end(tl), 9);
	fputs(",\"markers\":[", f);
	for (size_t i = 0; i < tl->n_markers; i++) {
		fputs(i ? ",[" : "[", f);
		json_num(f, tl->markers[i].t, 9);
		putc(',', f);
		lk_json_string(f, tl->markers[i].text);
		putc(']', f);
	}
	putc(']', f);
	if ((rc = write_series(f, tl)) < 0)
		return rc;
	if ((rc = write_chart(f, tl)) < 0)
		return rc;
	fputs(",\"detailColumns\":", f);
	json_strs(f, tl->detail_columns, tl->n_detail_columns);
	fputs(",\"bands\":[", f);
	for (size_t b = 0; b < tl->n_bands; b++) {
		if (b)
			fputs(",\n", f);
		write_band(f, tl, &tl->bands[b]);
	}
	putc(']', f);
	if (x && x->write && (rc = x->write(f, x->arg)) < 0)
		return rc;
	putc('}', f);
	return 0;
}

/* ---- the page -------------------------------------------------------- */

/* An asset that can be inlined in a <style>/<script> element: present and
 * free of the end tag that would close the element early. */
static const struct lk_asset *inline_asset(const char *name, const char *end_tag)
{
	const struct lk_asset *a = lk_asset_find(name);
	size_t tl = strlen(end_tag);

	if (!a)
		return NULL;
	for (size_t i = 0; i + tl <= a->len; i++)
		if (a->data[i] == '<' && strncasecmp((const char *)a->data + i, end_tag, tl) == 0)
			return NULL;
	return a;
}

/* The page's scripts, in the order they run: the modules report.js uses,
 * then report.js. */
static const char *const scripts[] = {"labels.js",  "cells.js",  "brush.js",
				      "chartopts.js", "bandstats.js", "summary.js",
				      "trees.js",   "report.js"};
#define N_SCRIPTS (sizeof(scripts) / sizeof(scripts[0]))

int lk_timeline_write_html(const struct lk_timeline *tl, FILE *out)
{
	return lk_timeline_write_html_extra(tl, NULL, out);
}

int lk_timeline_write_html_extra(const struct lk_timeline *tl, const struct lk_html_extra *x,
				 FILE *out)
{
	const struct lk_asset *css = inline_asset("report.css", "</style");
	const struct lk_asset *js[N_SCRIPTS + 1];
	const char *title = tl->title && *tl->title ? tl->title : "heap profile";
	size_t n_js = N_SCRIPTS + (x && x->script);
	int rc;

	for (size_t i = 0; i < n_js; i++)
		if (!(js[i] = inline_asset(i < N_SCRIPTS ? scripts[i] : x->script, "</script")))
			return -EINVAL;
	if (!css)
		return -EINVAL;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:", out);
	if (n_js > N_SCRIPTS)
		fputs("; connect-src 'self'", out);
	fputs("\">\n<meta name=\"generator\" content=\"leakscope\">\n<title>", out);
	html_text(out, title);
	fputs(" \xe2\x80\x94 leakscope</title>\n<style>\n", out);
	fwrite(css->data, 1, css->len, out);
	fputs("</style>\n</head>\n<body>\n<header id=\"head\"><h1 id=\"title\">", out);
	html_text(out, title);
	fputs("</h1></header>\n<main id=\"app\"><noscript>This report needs "
	      "JavaScript to draw its charts.</noscript></main>\n"
	      "<script type=\"application/json\" id=\"data\">", out);
	if ((rc = write_data(out, tl, x)) < 0)
		return rc;
	for (size_t i = 0; i < n_js; i++) {
		fputs("</script>\n<script>\n", out);
		fwrite(js[i]->data, 1, js[i]->len, out);
	}
	fputs("</script>\n</body>\n</html>\n", out);
	if (fflush(out) != 0 || ferror(out))
		return -EIO;
	return 0;
}

void lk_html_frame_json(FILE *f, const struct lk_frame_text *fr)
{
	putc('[', f);
	lk_json_string(f, fr->function);
	putc(',', f);
	lk_json_string(f, fr->file);
	fprintf(f, ",%d,", fr->line);
	lk_json_string(f, fr->module);
	fprintf(f, ",\"0x%llx\",%d]", (unsigned long long)fr->offset, fr->inlined ? 1 : 0);
}

void lk_html_frames_json(FILE *f, const struct lk_frame_text *frames, size_t n)
{
	putc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', f);
		lk_html_frame_json(f, &frames[i]);
	}
	putc(']', f);
}

char *lk_html_site_label(const struct lk_frame_text *frames, size_t n, uint32_t id)
{
	char *s = NULL;
	int rc;
	if (!n) {
		rc = asprintf(&s, "site %" PRIu32 " (no stack)", id);
	} else {
		const struct lk_frame_text *f = &frames[0];
		const char *file = f->file ? strrchr(f->file, '/') : NULL;
		file = file ? file + 1 : f->file;
		if (f->function && f->file)
			rc = asprintf(&s, "%s (%s:%d)", f->function, file, f->line);
		else if (f->function)
			rc = asprintf(&s, "%s", f->function);
		else
			rc = asprintf(&s, "%s+0x%" PRIx64, f->module ? f->module : "?", f->offset);
	}
	return rc < 0 ? NULL : s;
}

char *lk_html_fmt(const char *f, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

int lk_html_meta(struct lk_timeline *tl, const char *key, char *value)
{
	char *k = strdup(key);
	if (!k || !value) {
		free(k);
		free(value);
		return -ENOMEM;
	}
	tl->meta[tl->n_meta].key = k;
	tl->meta[tl->n_meta++].value = value;
	return 0;
}
