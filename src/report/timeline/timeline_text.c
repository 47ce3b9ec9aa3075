/*
 * timeline_text.c - a timeline for a terminal: metadata, warnings, markers
 * and a table of bands ranked by integrated size (with the detail columns,
 * e.g. IPE source locations, when the timeline has them). What the
 * program wrote (title, metadata, markers, labels) is escaped.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/timeline/text_escape.h"
#include "report/timeline/timeline_report.h"

const char *lk_tltext_bytes(double bytes, char *buf, size_t size)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = fabs(bytes);
	int u = 0;
	while (v >= 1024 && u < 4)
		v /= 1024, u++;
	if (u == 0)
		snprintf(buf, size, "%s%.0f B", bytes < 0 ? "-" : "", v);
	else
		snprintf(buf, size, "%s%.1f %s", bytes < 0 ? "-" : "", v, units[u]);
	return buf;
}

int lk_timeline_write_text(const struct lk_timeline *tl, FILE *out, int top_n)
{
	char b1[32], b2[32], b3[32];
	lk_text_put_escaped(out, tl->title ? tl->title : "(untitled)");
	putc('\n', out);
	for (size_t i = 0; i < tl->n_meta; i++) {
		fprintf(out, "  %-18s ", tl->meta[i].key);
		lk_text_put_escaped(out, tl->meta[i].value);
		putc('\n', out);
	}
	if (tl->n_samples)
		fprintf(out, "  %-18s %zu from %.3f s to %.3f s\n", "samples", tl->n_samples,
			tl->times[0], tl->times[tl->n_samples - 1]);
	for (size_t i = 0; i < tl->n_series; i++) {
		const struct lk_series *s = &tl->series[i];
		double peak = 0;
		for (size_t j = 0; j < s->n; j++)
			if (s->values[j] > peak)
				peak = s->values[j];
		fprintf(out, "  %-18s peak %s (%zu points)\n", s->name,
			lk_tltext_bytes(peak, b1, sizeof(b1)), s->n);
	}
	for (size_t i = 0; i < tl->n_warnings; i++)
		fprintf(out, "warning: %s\n", tl->warnings[i]);
	if (tl->n_markers) {
		fprintf(out, "\nmarkers:\n");
		for (size_t i = 0; i < tl->n_markers; i++) {
			fprintf(out, "  %10.3f s  ", tl->markers[i].t);
			lk_text_put_escaped(out, tl->markers[i].text);
			putc('\n', out);
		}
	}
	size_t n = tl->n_bands;
	if (top_n > 0 && (size_t)top_n < n)
		n = (size_t)top_n;
	fprintf(out, "\nbands (%zu of %zu, by integrated size):\n", n, tl->n_bands);
	fprintf(out, "%4s  %14s  %10s  %13s  %5s  %s", "rank", "integrated", "peak",
		"slope", "fit", "label");
	for (size_t c = 0; c < tl->n_detail_columns; c++)
		fprintf(out, " | %s", tl->detail_columns[c]);
	putc('\n', out);
	for (size_t k = 0; k < n; k++) {
		const struct lk_band *b = &tl->bands[k];
		char integ[40], slope[40];
		snprintf(integ, sizeof(integ), "%s*s",
			 lk_tltext_bytes(b->stats.integrated, b1, sizeof(b1)));
		snprintf(slope, sizeof(slope), "%s%s/s", b->stats.slope > 0 ? "+" : "",
			 lk_tltext_bytes(b->stats.slope, b3, sizeof(b3)));
		fprintf(out, "%4zu  %14s  %10s  %13s  %5.2f  ", k + 1, integ,
			lk_tltext_bytes(b->stats.peak, b2, sizeof(b2)), slope, b->stats.fit);
		lk_text_put_escaped(out, b->label ? b->label : b->id);
		for (size_t c = 0; b->details && c < tl->n_detail_columns; c++) {
			fputs(" | ", out);
			lk_text_put_escaped(out, b->details[c] ? b->details[c] : "");
		}
		putc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
