/*
 * folded.c - folded stacks, the input of flamegraph.pl, inferno and
 * speedscope: one line per stack, its frames from the outermost to the
 * allocating one separated by ';', a space and its value
 * ("main;serve;leak 4096"). Inlined frames are frames of their own; a
 * frame without a symbol is module+0xOFFSET.
 *
 * `leakscope report --format folded`: a line per allocation site, its
 * value the number chosen by --cost. `leakscope run --format folded`: a
 * line per reported leak, under two frames of its own - the process
 * ("prog (pid 123)") and the class ("definitely lost") - its value the
 * bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "report/trace/history_report.h"
#include "report/leak/leak_report.h"

/* A name as one frame of the line: ';' separates frames and the line ends
 * at a newline, so both become '_'. */
static void put_name(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

static void put_frames(FILE *out, const struct lk_frame_text *frames, size_t n)
{
	if (!n)
		fputs("[no stack]", out);
	for (size_t i = n; i-- > 0;) {
		const struct lk_frame_text *f = &frames[i];
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
	int rc = lk_history_rank(h, key, 0, &idx, &n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct lk_hist_site *s = &h->sites[idx[i]];
		if ((rc = lk_history_symbolize(h, s)))
			break;
		put_frames(out, s->frames, s->n_frames);
		fprintf(out, " %" PRIu64 "\n", lk_hist_site_amount(s, key));
	}
	free(idx);
	return rc ? rc : ferror(out) ? -EIO : 0;
}

void lk_leak_write_folded(const struct lk_run_result *r, FILE *out)
{
	for (size_t i = 0; i < r->n_reports; i++) {
		const struct lk_leak_report *rep = &r->reports[i];
		for (size_t j = 0; j < rep->n_leaks; j++) {
			const struct lk_leak *l = &rep->leaks[j];
			put_name(out, rep->command ? rep->command : "?");
			fprintf(out, " (pid %d);%s;", (int)rep->pid, lk_leak_class_text(l->cls));
			put_frames(out, l->frames, l->n_frames);
			fprintf(out, " %" PRIu64 "\n", l->bytes);
		}
	}
}
