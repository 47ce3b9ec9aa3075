/*
 * timeline_json.c - a timeline as JSON, schema "leakscope-timeline/1".
 * The schema is docs/json-timeline.md: adding a key is compatible, renaming
 * or removing one needs a new schema version.
 */
#include <errno.h>
#include <math.h>

#include "report/json.h"
#include "report/timeline_report.h"

static void stats(FILE *out, const struct lk_band_stats *s)
{
	static const char *const keys[] = {"integrated", "peak", "mean", "stddev",
					   "intercept", "slope", "fit"};
	const double v[] = {s->integrated, s->peak, s->mean, s->stddev,
			    s->intercept, s->slope, s->fit};
	lk_json_number_fields(out, keys, v, sizeof(v) / sizeof(v[0]));
}

static void band(FILE *out, const struct lk_timeline *tl, size_t k)
{
	const struct lk_band *b = &tl->bands[k];
	fprintf(out, "{\"rank\":%zu,\"id\":", k + 1);
	lk_json_string(out, b->id);
	fputs(",\"label\":", out);
	lk_json_string(out, b->label);
	fputs(",\"stats\":", out);
	stats(out, &b->stats);
	if (b->details && tl->n_detail_columns) {
		fputs(",\"details\":{", out);
		for (size_t i = 0; i < tl->n_detail_columns; i++) {
			if (i)
				putc(',', out);
			lk_json_string(out, tl->detail_columns[i]);
			putc(':', out);
			lk_json_string(out, b->details[i]);
		}
		putc('}', out);
	}
	if (b->n_frames) {
		fputs(",\"frames\":[", out);
		for (size_t i = 0; i < b->n_frames; i++) {
			const struct lk_frame_text *f = &b->frames[i];
			fputs(i ? ",{\"function\":" : "{\"function\":", out);
			lk_json_string(out, f->function);
			fputs(",\"file\":", out);
			lk_json_string(out, f->file);
			fprintf(out, ",\"line\":%d,\"module\":", f->line);
			lk_json_string(out, f->module);
			fprintf(out, ",\"offset\":%llu,\"inlined\":%s}",
				(unsigned long long)f->offset, f->inlined ? "true" : "false");
		}
		putc(']', out);
	}
	fputs(",\"values\":", out);
	lk_json_numbers(out, b->values, tl->n_samples);
	putc('}', out);
}

int lk_timeline_write_json(const struct lk_timeline *tl, FILE *out)
{
	fputs("{\"schema\":\"" LK_TIMELINE_SCHEMA "\",\"title\":", out);
	lk_json_string(out, tl->title);
	fputs(",\n\"meta\":{", out);
	for (size_t i = 0; i < tl->n_meta; i++) {
		if (i)
			putc(',', out);
		lk_json_string(out, tl->meta[i].key);
		putc(':', out);
		lk_json_string(out, tl->meta[i].value);
	}
	fputs("},\n\"warnings\":[", out);
	for (size_t i = 0; i < tl->n_warnings; i++) {
		if (i)
			putc(',', out);
		lk_json_string(out, tl->warnings[i]);
	}
	fputs("],\n\"markers\":[", out);
	for (size_t i = 0; i < tl->n_markers; i++) {
		fputs(i ? ",\n{\"t\":" : "\n{\"t\":", out);
		lk_json_number(out, tl->markers[i].t);
		fputs(",\"text\":", out);
		lk_json_string(out, tl->markers[i].text);
		putc('}', out);
	}
	fputs("],\n\"detail_columns\":[", out);
	for (size_t i = 0; i < tl->n_detail_columns; i++) {
		if (i)
			putc(',', out);
		lk_json_string(out, tl->detail_columns[i]);
	}
	fputs("],\n\"times\":", out);
	lk_json_numbers(out, tl->times, tl->n_samples);
	fputs(",\n\"bands\":[", out);
	for (size_t k = 0; k < tl->n_bands; k++) {
		fputs(k ? ",\n" : "\n", out);
		band(out, tl, k);
	}
	fputs("],\n\"series\":[", out);
	for (size_t i = 0; i < tl->n_series; i++) {
		const struct lk_series *s = &tl->series[i];
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		lk_json_string(out, s->name);
		fputs(",\"times\":", out);
		lk_json_numbers(out, s->times, s->n);
		fputs(",\"values\":", out);
		lk_json_numbers(out, s->values, s->n);
		putc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}
