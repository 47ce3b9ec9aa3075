/*
 * timeline_hp.c - a timeline as a GHC heap profile file (.hp), the format
 * of `+RTS -h` without -l, drawn by hp2ps (and hp2pretty, and the viewers
 * that read it): one sample block per census with each band's bytes, and
 * the markers as MARK lines. docs/eventlog.md ("Other viewers").
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/timeline/timeline_report.h"

static const char *meta_value(const struct lk_timeline *tl, const char *key)
{
	for (size_t i = 0; i < tl->n_meta; i++)
		if (strcmp(tl->meta[i].key, key) == 0)
			return tl->meta[i].value;
	return NULL;
}

/* A string of the header: in double quotes, which it may not contain. */
static void quoted(FILE *out, const char *s)
{
	putc('"', out);
	for (; s && *s; s++)
		putc(*s == '"' ? '\'' : *s == '\n' ? ' ' : *s, out);
	putc('"', out);
}

/* A band's name is one word in the file: white space becomes '_'. */
static void band_name(FILE *out, const char *s)
{
	if (!s || !*s)
		s = "?";
	for (; *s; s++)
		putc(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

int lk_timeline_write_hp(const struct lk_timeline *tl, FILE *out)
{
	const char *program = meta_value(tl, "program");
	fputs("JOB ", out);
	quoted(out, program ? program : tl->title);
	fputs("\nDATE ", out);
	quoted(out, meta_value(tl, "start"));
	fputs("\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n", out);
	size_t m = 0;
	for (size_t j = 0; j < tl->n_samples; j++) {
		double t = tl->times[j];
		for (; m < tl->n_markers && tl->markers[m].t <= t; m++)
			fprintf(out, "MARK %.6f\n", tl->markers[m].t);
		fprintf(out, "BEGIN_SAMPLE %.6f\n", t);
		for (size_t b = 0; b < tl->n_bands; b++) {
			double v = tl->bands[b].values ? tl->bands[b].values[j] : 0;
			if (!(v > 0))
				continue;
			band_name(out, tl->bands[b].label);
			fprintf(out, "\t%.0f\n", nearbyint(v));
		}
		fprintf(out, "END_SAMPLE %.6f\n", t);
	}
	for (; m < tl->n_markers; m++)
		fprintf(out, "MARK %.6f\n", tl->markers[m].t);
	return ferror(out) ? -EIO : 0;
}
