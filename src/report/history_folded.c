/*
 * history_folded.c - `leakscope report --format folded`: one line per
 * allocation site, its frames from the outermost to the allocating one
 * separated by ';', a space and its value ("main;serve;leak 4096"): the
 * folded stacks that flamegraph.pl, inferno and speedscope draw as flame
 * graphs. Inlined frames are frames of their own; a frame without a symbol
 * is module+0xOFFSET.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "report/history_report.h"

/* A name as one frame of the line: ';' separates frames and the line ends
 * at a newline, so both become '_'. */
static void put_name(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

static void put_frames(FILE *out, const struct lk_hist_site *s)
{
	if (!s->n_frames)
		fputs("[no stack]", out);
	for (size_t i = s->n_frames; i-- > 0;) {
		const struct lk_frame_text *f = &s->frames[i];
		if (f->function) {
			put_name(out, f->function);
		} else {
			put_name(out, f->module ? f->module : "??");
			fprintf(out, "+0x%" PRIx64, f->offset);
		}
		if (i)
			putc(';', out);
	}
}

int lk_history_write_folded(const struct lk_history *h, enum lk_hist_key key, FILE *out)
{
	size_t *idx, n;
	int rc = lk_history_rank(h, key, &idx, &n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		put_frames(out, s);
		fprintf(out, " %" PRIu64 "\n", lk_hist_site_amount(s, key));
	}
	free(idx);
	return ferror(out) ? -EIO : 0;
}
