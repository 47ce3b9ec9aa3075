/*
 * gen_supp.c - `run --gen-suppressions`: for each group a run reports
 * lost, the line that suppresses it - its first frame that is not an
 * allocation wrapper (analyze/alloc_frames.h) - each pattern said once,
 * after the reports of every process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/alloc_frames.h"
#include "report/leak/leak_report.h"

/* The suppression for l, malloc'ed: "leak:^F$" for the first frame that
 * is not an allocation wrapper, else for frame 0, or "leak:MODULE"
 * without a function; NULL when there is nothing to name (or no memory). */
static char *suppression_line(const struct lk_leak *l)
{
	size_t i = lk_alloc_caller(l->frames, l->n_frames);
	const struct lk_frame_text *f = i < l->n_frames ? &l->frames[i]
				      : l->n_frames ? &l->frames[0] : NULL;
	char *line = NULL;
	if (f && f->function && asprintf(&line, "leak:^%s$", f->function) < 0)
		line = NULL;
	else if (f && !f->function && f->module && asprintf(&line, "leak:%s", f->module) < 0)
		line = NULL;
	return line;
}

/* The lines of every lost group, in report order: *n of them. */
static char **lines_of(const struct lk_run_result *r, size_t *n)
{
	size_t cap = 0;
	*n = 0;
	for (size_t p = 0; p < r->n_reports; p++)
		cap += r->reports[p].n_leaks;
	char **lines = calloc(cap + 1, sizeof(*lines));
	for (size_t p = 0; lines && p < r->n_reports; p++)
		for (size_t l = 0; l < r->reports[p].n_leaks; l++) {
			const struct lk_leak *g = &r->reports[p].leaks[l];
			char *line = g->cls == LK_CLASS_REACHABLE ? NULL : suppression_line(g);
			if (line)
				lines[(*n)++] = line;
		}
	return lines;
}

struct line_at {
	char *text;
	size_t at;       /* its place in the report */
};

static int by_text(const void *a, const void *b)
{
	const struct line_at *x = a, *y = b;
	int c = strcmp(x->text, y->text);
	return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

/* Empty the lines said before (the same text, earlier in lines). */
static void drop_repeats(char **lines, size_t n)
{
	struct line_at *sorted = malloc((n + 1) * sizeof(*sorted));
	if (!sorted)
		return;
	for (size_t i = 0; i < n; i++)
		sorted[i] = (struct line_at){lines[i], i};
	qsort(sorted, n, sizeof(*sorted), by_text);
	for (size_t i = n; i-- > 1; )
		if (!strcmp(sorted[i - 1].text, sorted[i].text))
			sorted[i].text[0] = 0;   /* a repeat of sorted[i - 1] */
	free(sorted);
}

void lk_leak_write_suppressions(const struct lk_run_result *r, FILE *out)
{
	size_t n;
	char **lines = lines_of(r, &n);
	if (lines)
		drop_repeats(lines, n);
	if (n)
		fputs("leakscope: suppressions for these leaks (put them in a file for "
		      "--suppressions):\n", out);
	for (size_t i = 0; lines && i < n; i++) {
		if (lines[i][0])
			fprintf(out, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
}
