/*
 * timeline_diff_report.c - text and JSON writers of a timeline diff
 * (analyze/timeline_diff.h); the JSON schema is in docs/json-timeline.md.
 */
#include <errno.h>
#include <string.h>

#include "report/json.h"
#include "report/timeline/timeline_report.h"

static const char *side_name(enum lk_diff_side s)
{
	return s == LK_DIFF_BEFORE_ONLY ? "removed" : s == LK_DIFF_AFTER_ONLY ? "added" : "both";
}

int lk_timeline_diff_write_text(const struct lk_timeline_diff *d, FILE *out, int top_n)
{
	char a[32], b[32], c[32], e[32], f[32], g[32];
	size_t n = d->n_rows;
	if (top_n > 0 && (size_t)top_n < n)
		n = (size_t)top_n;
	fprintf(out, "before: %s\nafter:  %s\n\n", d->before_title, d->after_title);
	fprintf(out, "%-8s %23s  %23s  %27s  %s\n", "change", "peak before -> after",
		"integrated (B*s)", "slope (B/s)", "label");
	for (size_t i = 0; i < n; i++) {
		const struct lk_diff_row *r = &d->rows[i];
		const char *what = side_name(r->side);
		if (r->side == LK_DIFF_BOTH)
			what = r->after.integrated < r->before.integrated ? "shrunk"
			     : r->after.integrated > r->before.integrated ? "grown" : "same";
		char peak[64], integ[64], slope[64];
		snprintf(peak, sizeof(peak), "%s -> %s", lk_tltext_bytes(r->before.peak, a, 32),
			 lk_tltext_bytes(r->after.peak, b, 32));
		snprintf(integ, sizeof(integ), "%s -> %s",
			 lk_tltext_bytes(r->before.integrated, c, 32),
			 lk_tltext_bytes(r->after.integrated, e, 32));
		snprintf(slope, sizeof(slope), "%s -> %s", lk_tltext_bytes(r->before.slope, f, 32),
			 lk_tltext_bytes(r->after.slope, g, 32));
		fprintf(out, "%-8s %23s  %23s  %27s  %s", what, peak, integ, slope, r->label);
		if (r->after_label && strcmp(r->after_label, r->label) != 0)
			fprintf(out, " -> %s", r->after_label);
		putc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

/* "peak", "integrated", "slope" of a side or of the delta, then the fit
 * when there is one (NULL: none); precisions of report/json.h. */
static void diff_stats(FILE *out, const char *name, double peak, double integrated,
		       double slope, const double *fit)
{
	fprintf(out, ",\"%s\":{\"peak\":", name);
	lk_json_fixed(out, peak, LK_JSON_BYTES_DECIMALS);
	fputs(",\"integrated\":", out);
	lk_json_fixed(out, integrated, LK_JSON_RATE_DECIMALS);
	fputs(",\"slope\":", out);
	lk_json_fixed(out, slope, LK_JSON_RATE_DECIMALS);
	if (fit) {
		fputs(",\"fit\":", out);
		lk_json_fixed(out, *fit, LK_JSON_FIT_DECIMALS);
	}
	putc('}', out);
}

static void side_stats(FILE *out, const char *name, const struct lk_band_stats *s)
{
	diff_stats(out, name, s->peak, s->integrated, s->slope, &s->fit);
}

int lk_timeline_diff_write_json(const struct lk_timeline_diff *d, FILE *out)
{
	fputs("{\"schema\":\"" LK_TIMELINE_DIFF_SCHEMA "\",\"before\":", out);
	lk_json_string(out, d->before_title);
	fputs(",\"after\":", out);
	lk_json_string(out, d->after_title);
	fputs(",\n\"bands\":[", out);
	for (size_t i = 0; i < d->n_rows; i++) {
		const struct lk_diff_row *r = &d->rows[i];
		fputs(i ? ",\n{\"id\":" : "\n{\"id\":", out);
		lk_json_string(out, r->id);
		fputs(",\"label\":", out);
		lk_json_string(out, r->label);
		if (r->after_id) {
			fputs(",\"after_id\":", out);
			lk_json_string(out, r->after_id);
			fputs(",\"after_label\":", out);
			lk_json_string(out, r->after_label);
		}
		fprintf(out, ",\"side\":\"%s\"", side_name(r->side));
		if (r->side != LK_DIFF_AFTER_ONLY)
			side_stats(out, "before", &r->before);
		if (r->side != LK_DIFF_BEFORE_ONLY)
			side_stats(out, "after", &r->after);
		diff_stats(out, "delta", r->after.peak - r->before.peak,
			   r->after.integrated - r->before.integrated,
			   r->after.slope - r->before.slope, NULL);
		putc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}
