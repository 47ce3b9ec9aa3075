/*
 * timeline_json.c - a timeline as JSON, schema "leakscope-timeline/2".
 * The schema is docs/json-timeline.md: adding a key is compatible, renaming
 * or removing one needs a new schema version. Times are integer
 * nanoseconds, bytes integers, keys identifiers.
 */
#include <errno.h>
#include <inttypes.h>

#include "report/json.h"
#include "report/timeline/timeline_report.h"

/* Seconds as integer nanoseconds. */
static void ns(FILE *out, double seconds)
{
	lk_json_fixed(out, seconds * LK_JSON_NS_PER_S, 0);
}

static void ns_array(FILE *out, const double *seconds, size_t n)
{
	lk_json_fixed_array(out, seconds, n, LK_JSON_NS_PER_S, 0);
}

static void bytes_array(FILE *out, const double *bytes, size_t n)
{
	lk_json_fixed_array(out, bytes, n, 1, LK_JSON_BYTES_DECIMALS);
}

static void band(FILE *out, const struct lk_timeline *tl, size_t k)
{
	const struct lk_band *b = &tl->bands[k];
	fprintf(out, "{\"rank\":%zu,\"id\":", k + 1);
	lk_json_string(out, b->id);
	fputs(",\"label\":", out);
	lk_json_string(out, b->label);
	fputs(",\"stats\":", out);
	lk_json_band_stats(out, &b->stats);
	if (b->details && tl->n_detail_columns) {
		fputs(",\"details\":{", out);
		for (size_t i = 0; i < tl->n_detail_columns; i++) {
			if (i)
				putc(',', out);
			lk_json_ident(out, tl->detail_columns[i]);
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
	bytes_array(out, b->values, tl->n_samples);
	putc('}', out);
}

/* Identifier keys; numbers as numbers. */
static void meta(FILE *out, const struct lk_timeline *tl)
{
	putc('{', out);
	for (size_t i = 0; i < tl->n_meta; i++) {
		const struct lk_meta *m = &tl->meta[i];
		if (i)
			putc(',', out);
		lk_json_ident(out, m->name ? m->name : m->key);
		putc(':', out);
		if (m->numeric)
			fprintf(out, "%" PRId64, m->num);
		else
			lk_json_string(out, m->value);
	}
	putc('}', out);
}

int lk_timeline_write_json(const struct lk_timeline *tl, FILE *out)
{
	fputs("{\"schema\":\"" LK_TIMELINE_SCHEMA "\",\"title\":", out);
	lk_json_string(out, tl->title);
	fputs(",\n\"meta\":", out);
	meta(out, tl);
	fputs(",\n\"warnings\":[", out);
	for (size_t i = 0; i < tl->n_warnings; i++) {
		if (i)
			putc(',', out);
		lk_json_string(out, tl->warnings[i]);
	}
	fputs("],\n\"markers\":[", out);
	for (size_t i = 0; i < tl->n_markers; i++) {
		fputs(i ? ",\n{\"t_ns\":" : "\n{\"t_ns\":", out);
		ns(out, tl->markers[i].t);
		fputs(",\"text\":", out);
		lk_json_string(out, tl->markers[i].text);
		putc('}', out);
	}
	fputs("],\n\"detail_columns\":[", out);
	for (size_t i = 0; i < tl->n_detail_columns; i++) {
		if (i)
			putc(',', out);
		lk_json_ident(out, tl->detail_columns[i]);
	}
	fputs("],\n\"times_ns\":", out);
	ns_array(out, tl->times, tl->n_samples);
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
		fputs(",\"times_ns\":", out);
		ns_array(out, s->times, s->n);
		fputs(",\"values\":", out);
		bytes_array(out, s->values, s->n);
		putc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}
