/* tdiff_report.c - `leakscope diff` as text and as JSON, schema
 * leakscope-trace-diff/2 (docs/json-trace-report.md). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "report/trace/history_report.h"
#include "report/json.h"
#include "report/text_frames.h"

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static int changed(const struct lk_tdiff_row *r)
{
	return r->added_objects || r->removed_objects || r->bytes_a != r->bytes_b;
}

int lk_tdiff_write_text(const struct lk_tdiff *d, int top, const struct lk_text_style *st,
			FILE *out)
{
	size_t more = 0;
	char b1[32], b2[32], b3[32], b4[32];
	fprintf(out, "leakscope diff: %s (%.6g s) -> %s (%.6g s)%s\n", d->a, d->t_a, d->b, d->t_b,
		d->exact ? "" : ", sites matched by their symbolized stacks");
	fprintf(out, "  live: %s -> %s bytes; added %s bytes in %" PRIu64 " object%s, removed %s "
		"bytes in %" PRIu64 " object%s\n", lk_grouped(d->bytes_a, b1, sizeof(b1)),
		lk_grouped(d->bytes_b, b2, sizeof(b2)), lk_grouped(d->added_bytes, b3, sizeof(b3)),
		d->added_objects, plural(d->added_objects), lk_grouped(d->removed_bytes, b4, sizeof(b4)),
		d->removed_objects, plural(d->removed_objects));
	if (!d->n_rows)
		fputs("  no site changed\n", out);
	for (size_t i = 0; i < d->n_rows && (top <= 0 || i < (size_t)top); i++) {
		const struct lk_tdiff_row *r = &d->rows[i];
		if (!changed(r))
			continue;
		fprintf(out, "\n  +%s bytes in %" PRIu64 " object%s, -%s bytes in %" PRIu64
			" object%s (live %s -> %s bytes):\n",
			lk_grouped(r->added_bytes, b1, sizeof(b1)), r->added_objects,
			plural(r->added_objects), lk_grouped(r->removed_bytes, b2, sizeof(b2)),
			r->removed_objects, plural(r->removed_objects),
			lk_grouped(r->bytes_a, b3, sizeof(b3)), lk_grouped(r->bytes_b, b4, sizeof(b4)));
		lk_text_frames(out, "      ", r->frames, r->n_frames, st);
	}
	for (size_t i = top > 0 ? (size_t)top : d->n_rows; i < d->n_rows; i++)
		more += changed(&d->rows[i]);
	if (more)
		putc('\n', out);
	lk_text_more_sites(out, "  ", more, st);
	return fflush(out) || ferror(out) ? -EIO : 0;
}

static void site_id(FILE *out, const char *key, uint32_t id)
{
	if (id == UINT32_MAX)
		fprintf(out, ",\"%s\":null", key);
	else
		fprintf(out, ",\"%s\":%" PRIu32, key, id);
}

/* "live_bytes", "live_objects" at the point, then its trace's totals up to it. */
static void side_json(FILE *out, uint64_t bytes, uint64_t objects, const struct lk_hist_totals *t)
{
	fprintf(out, ",\"live_bytes\":%" PRIu64 ",\"live_objects\":%" PRIu64 ",\"peak_bytes\":%" PRIu64
		",\"peak_t_ns\":%" PRIu64 ",\"allocations\":%" PRIu64 ",\"bytes_allocated\":%" PRIu64
		",\"temporary_allocations\":%" PRIu64 "}", bytes, objects, t->peak_bytes, t->peak_t,
		t->allocs, t->bytes_allocated, t->temporaries);
}

int lk_tdiff_write_json(const struct lk_tdiff *d, FILE *out)
{
	fputs("{\"schema\":\"" LK_TRACE_DIFF_SCHEMA "\",\"a\":{\"point\":", out);
	lk_json_string(out, d->a);
	fprintf(out, ",\"t_ns\":%" PRIu64, d->ns_a);
	side_json(out, d->bytes_a, d->objects_a, &d->side_a);
	fputs(",\"b\":{\"point\":", out);
	lk_json_string(out, d->b);
	fprintf(out, ",\"t_ns\":%" PRIu64, d->ns_b);
	side_json(out, d->bytes_b, d->objects_b, &d->side_b);
	fprintf(out, ",\"exact\":%s", d->exact ? "true" : "false");
	fprintf(out, ",\"added_bytes\":%" PRIu64 ",\"added_objects\":%" PRIu64
		",\"removed_bytes\":%" PRIu64 ",\"removed_objects\":%" PRIu64 ",\n\"sites\":[",
		d->added_bytes, d->added_objects, d->removed_bytes, d->removed_objects);
	for (size_t i = 0; i < d->n_rows; i++) {
		const struct lk_tdiff_row *r = &d->rows[i];
		fputs(i ? ",\n{" : "\n{", out);
		fprintf(out, "\"bytes_a\":%" PRIu64 ",\"objects_a\":%" PRIu64 ",\"bytes_b\":%" PRIu64
			",\"objects_b\":%" PRIu64 ",\"added_bytes\":%" PRIu64 ",\"added_objects\":%" PRIu64
			",\"removed_bytes\":%" PRIu64 ",\"removed_objects\":%" PRIu64,
			r->bytes_a, r->objects_a, r->bytes_b, r->objects_b, r->added_bytes,
			r->added_objects, r->removed_bytes, r->removed_objects);
		site_id(out, "site_a", r->site_a);
		site_id(out, "site_b", r->site_b);
		fputs(",\"stack\":", out);
		lk_json_frames(out, r->frames, r->n_frames);
		putc('}', out);
	}
	fputs("]}\n", out);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
