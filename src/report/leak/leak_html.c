/*
 * leak_html.c - `leakscope run --format html`: the leak report of a run as
 * the shared self-contained page (report/html.h), without a timeline: the
 * header says the command, its end and the bytes of each class; the page's
 * Leaks tab lists every group (allocation stack and verdict) with its
 * stack, and its flame graph and trees (report/flame_json.h) draw the
 * stacks by bytes or blocks not freed. With several processes, each
 * group's label names its process.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame_json.h"
#include "report/html.h"
#include "report/json.h"
#include "report/leak/leak_report.h"

static const char *const measures[][3] = {
	{"leaked", "Not freed at exit", "bytes"},
	{"blocks", "Blocks not freed at exit", "count"},
};

/* Group g of all the processes' groups (listed, then suppressed). */
struct group {
	const struct lk_leak_report *p;
	const struct lk_leak *l;
	int suppressed;
};

static size_t n_groups(const struct lk_run_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_reports; i++)
		n += r->reports[i].n_leaks + r->reports[i].n_suppressed;
	return n;
}

static struct group group_at(const struct lk_run_result *r, size_t g)
{
	for (size_t i = 0; i < r->n_reports; i++) {
		const struct lk_leak_report *p = &r->reports[i];
		if (g < p->n_leaks)
			return (struct group){p, &p->leaks[g], 0};
		g -= p->n_leaks;
		if (g < p->n_suppressed)
			return (struct group){p, &p->suppressed[g], 1};
		g -= p->n_suppressed;
	}
	return (struct group){0};
}

static char *group_label(const struct lk_run_result *r, const struct group *g)
{
	char *base = lk_html_site_label(g->l->frames, g->l->n_frames, g->l->stack), *s;
	if (!base || r->n_reports < 2)
		return base;
	s = lk_html_fmt("%s [pid %d]", base, (int)g->p->pid);
	free(base);
	return s;
}

static char *command_line(char **argv)
{
	size_t len = 1;
	for (char **a = argv; a && *a; a++)
		len += strlen(*a) + 1;
	char *s = calloc(len, 1);
	for (char **a = argv; s && a && *a; a++) {
		if (a != argv)
			strcat(s, " ");
		strcat(s, *a);
	}
	return s;
}

static int build(struct lk_timeline *tl, const struct lk_run_result *r)
{
	memset(tl, 0, sizeof(*tl));
	tl->title = command_line(r->argv);
	tl->meta = calloc(3 + LK_CLASS_COUNT, sizeof(*tl->meta));
	if (!tl->title || !tl->meta)
		return -ENOMEM;
	int rc = lk_html_meta(tl, "command", strdup(tl->title));
	if (!rc)
		rc = lk_html_meta(tl, "end", r->signal ? lk_html_fmt("killed by signal %d", r->signal)
						      : lk_html_fmt("exit code %d", r->exit_code));
	if (!rc)
		rc = lk_html_meta(tl, "processes", lk_html_fmt("%zu", r->n_reports));
	for (int c = 0; c < LK_CLASS_COUNT && !rc; c++) {
		uint64_t b = 0, n = 0;
		for (size_t i = 0; i < r->n_reports; i++) {
			b += r->reports[i].class_bytes[c];
			n += r->reports[i].class_objects[c];
		}
		if (n)
			rc = lk_html_meta(tl, lk_leak_class_id(c),
					  lk_html_fmt("%" PRIu64 " B in %" PRIu64 " blocks", b, n));
	}
	return rc;
}

static void leak_rows(FILE *f, const struct lk_run_result *r, size_t n)
{
	uint64_t b = 0, k = 0;
	fputs(",\"leaks\":[", f);
	for (size_t i = 0; i < n; i++) {
		struct group g = group_at(r, i);
		char *label = group_label(r, &g);
		fprintf(f, "%s{\"b\":%" PRIu64 ",\"n\":%" PRIu64 ",\"t0\":null,\"t1\":null,\"label\":",
			i ? ",\n" : "", g.l->bytes, g.l->objects);
		lk_json_string(f, label ? label : "?");
		fputs(",\"f\":", f);
		lk_html_frames_json(f, g.l->frames, g.l->n_frames);
		fprintf(f, ",\"site\":%zu}", i);
		free(label);
		b += g.suppressed ? 0 : g.l->bytes;
		k += g.suppressed ? 0 : g.l->objects;
	}
	fprintf(f, "],\"leaksTotal\":{\"b\":%" PRIu64 ",\"n\":%" PRIu64 ",\"groups\":%zu}", b, k, n);
}

/* "verdicts" as a trace's page has them (report/trace/history_html.c). */
static void verdicts(FILE *f, const struct lk_run_result *r, size_t n)
{
	uint64_t sb = 0, sn = 0;
	int scanned = 1;
	fputs(",\"verdicts\":{\"scanned\":", f);
	for (size_t i = 0; i < r->n_reports; i++) {
		scanned &= r->reports[i].scanned;
		sb += r->reports[i].suppressed_bytes;
		sn += r->reports[i].suppressed_objects;
	}
	fprintf(f, "%s,\"note\":", scanned ? "true" : "false");
	lk_json_string(f, r->n_reports ? r->reports[0].scan_note : NULL);
	fputs(",\"classes\":{", f);
	for (int c = 0; c < LK_CLASS_COUNT; c++) {
		uint64_t b = 0, k = 0;
		for (size_t i = 0; i < r->n_reports; i++) {
			b += r->reports[i].class_bytes[c];
			k += r->reports[i].class_objects[c];
		}
		fprintf(f, "%s\"%s\":[%" PRIu64 ",%" PRIu64 "]", c ? "," : "", lk_leak_class_id(c), b, k);
	}
	fprintf(f, "},\"suppressed\":[%" PRIu64 ",%" PRIu64 "],\"groups\":[", sb, sn);
	for (size_t i = 0; i < n; i++) {
		struct group g = group_at(r, i);
		fprintf(f, "%s[%zu,\"%s\",%" PRIu64 ",%" PRIu64 "]", i ? "," : "", i,
			g.suppressed ? "suppressed" : lk_leak_class_id(g.l->cls), g.l->bytes, g.l->objects);
	}
	fputs("]}", f);
}

static int group_stack(void *arg, size_t i, size_t max, struct lk_flame_stack *out)
{
	struct group g = group_at(arg, i);
	(void)max;
	out->frames = g.l->frames;
	out->n_frames = g.l->n_frames;
	out->values[0] = g.suppressed ? 0 : g.l->bytes;
	out->values[1] = g.suppressed ? 0 : g.l->objects;
	out->site = (uint32_t)i;
	return 0;
}

static int extra(FILE *f, void *arg)
{
	const struct lk_run_result *r = arg;
	size_t n = n_groups(r);
	fputs(",\"run\":true", f);
	leak_rows(f, r, n);
	verdicts(f, r, n);
	return lk_flame_json(f, measures, 2, n, n, group_stack, arg);
}

int lk_leak_write_html(const struct lk_run_result *r, FILE *out)
{
	struct lk_timeline tl;
	int rc = build(&tl, r);
	if (rc == 0) {
		struct lk_html_extra x = {.write = extra, .arg = (void *)r};
		rc = lk_timeline_write_html_extra(&tl, &x, out);
	}
	lk_timeline_release(&tl);
	return rc;
}
