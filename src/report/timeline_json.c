/*
 * timeline_json.c - a timeline as JSON, schema "leakscope-timeline/1".
 * The schema is docs/json-timeline.md: adding a key is compatible, renaming
 * or removing one needs a new schema version.
 */
#include <errno.h>
#include <math.h>

#include "report/timeline_report.h"

void lk_tljson_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				putc(*p, out);
		}
	}
	putc('"', out);
}

void lk_tljson_number(FILE *out, double v)
{
	if (!isfinite(v))
		fputs("null", out);
	else if (fabs(v) < 9e15 && v == (double)(long long)v)
		fprintf(out, "%lld", (long long)v);
	else
		fprintf(out, "%.9g", v);
}

static void numbers(FILE *out, const double *v, size_t n)
{
	putc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', out);
		lk_tljson_number(out, v[i]);
	}
	putc(']', out);
}

static void stats(FILE *out, const struct lk_band_stats *s)
{
	fputs("{\"integrated\":", out);
	lk_tljson_number(out, s->integrated);
	fputs(",\"peak\":", out);
	lk_tljson_number(out, s->peak);
	fputs(",\"mean\":", out);
	lk_tljson_number(out, s->mean);
	fputs(",\"stddev\":", out);
	lk_tljson_number(out, s->stddev);
	fputs(",\"intercept\":", out);
	lk_tljson_number(out, s->intercept);
	fputs(",\"slope\":", out);
	lk_tljson_number(out, s->slope);
	fputs(",\"fit\":", out);
	lk_tljson_number(out, s->fit);
	putc('}', out);
}

static void band(FILE *out, const struct lk_timeline *tl, size_t k)
{
	const struct lk_band *b = &tl->bands[k];
	fprintf(out, "{\"rank\":%zu,\"id\":", k + 1);
	lk_tljson_string(out, b->id);
	fputs(",\"label\":", out);
	lk_tljson_string(out, b->label);
	fputs(",\"stats\":", out);
	stats(out, &b->stats);
	if (b->details && tl->n_detail_columns) {
		fputs(",\"details\":{", out);
		for (size_t i = 0; i < tl->n_detail_columns; i++) {
			if (i)
				putc(',', out);
			lk_tljson_string(out, tl->detail_columns[i]);
			putc(':', out);
			lk_tljson_string(out, b->details[i]);
		}
		putc('}', out);
	}
	if (b->n_frames) {
		fputs(",\"frames\":[", out);
		for (size_t i = 0; i < b->n_frames; i++) {
			const struct lk_frame_text *f = &b->frames[i];
			fputs(i ? ",{\"function\":" : "{\"function\":", out);
			lk_tljson_string(out, f->function);
			fputs(",\"file\":", out);
			lk_tljson_string(out, f->file);
			fprintf(out, ",\"line\":%d,\"module\":", f->line);
			lk_tljson_string(out, f->module);
			fprintf(out, ",\"offset\":%llu,\"inlined\":%s}",
				(unsigned long long)f->offset, f->inlined ? "true" : "false");
		}
		putc(']', out);
	}
	fputs(",\"values\":", out);
	numbers(out, b->values, tl->n_samples);
	putc('}', out);
}

int lk_timeline_write_json(const struct lk_timeline *tl, FILE *out)
{
	fputs("{\"schema\":\"" LK_TIMELINE_SCHEMA "\",\"title\":", out);
	lk_tljson_string(out, tl->title);
	fputs(",\n\"meta\":{", out);
	for (size_t i = 0; i < tl->n_meta; i++) {
		if (i)
			putc(',', out);
		lk_tljson_string(out, tl->meta[i].key);
		putc(':', out);
		lk_tljson_string(out, tl->meta[i].value);
	}
	fputs("},\n\"warnings\":[", out);
	for (size_t i = 0; i < tl->n_warnings; i++) {
		if (i)
			putc(',', out);
		lk_tljson_string(out, tl->warnings[i]);
	}
	fputs("],\n\"markers\":[", out);
	for (size_t i = 0; i < tl->n_markers; i++) {
		fputs(i ? ",\n{\"t\":" : "\n{\"t\":", out);
		lk_tljson_number(out, tl->markers[i].t);
		fputs(",\"text\":", out);
		lk_tljson_string(out, tl->markers[i].text);
		putc('}', out);
	}
	fputs("],\n\"detail_columns\":[", out);
	for (size_t i = 0; i < tl->n_detail_columns; i++) {
		if (i)
			putc(',', out);
		lk_tljson_string(out, tl->detail_columns[i]);
	}
	fputs("],\n\"times\":", out);
	numbers(out, tl->times, tl->n_samples);
	fputs(",\n\"bands\":[", out);
	for (size_t k = 0; k < tl->n_bands; k++) {
		fputs(k ? ",\n" : "\n", out);
		band(out, tl, k);
	}
	fputs("],\n\"series\":[", out);
	for (size_t i = 0; i < tl->n_series; i++) {
		const struct lk_series *s = &tl->series[i];
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		lk_tljson_string(out, s->name);
		fputs(",\"times\":", out);
		numbers(out, s->times, s->n);
		fputs(",\"values\":", out);
		numbers(out, s->values, s->n);
		putc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}
