/* leak_text.c - the leak report for a person (see leak_report.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "analyze/supp_used.h"
#include "report/leak/leak_report.h"
#include "report/short_name.h"
#include "report/text_frames.h"

/* --why: the root, then each block of the chain down to this group's. */
static void why_path(FILE *out, const struct lk_why_path *w)
{
	char b[32], name[512];
	fprintf(out, "  kept by %s%s\n", w->root, w->n_steps > 1 ? ", through:" : "");
	for (size_t i = 0; i + 1 < w->n_steps; i++) {
		const struct lk_frame_text *f = &w->steps[i].site;
		if (f->function)
			lk_short_name(f->function, name, sizeof(name));
		fprintf(out, "    a block of %s bytes from %s", lk_grouped(w->steps[i].bytes, b,
			sizeof(b)), f->function ? name : f->module ? f->module : "?");
		if (f->file)
			fprintf(out, " (%s:%d)", f->file, f->line);
		fputc('\n', out);
	}
}

static void leak_block(FILE *out, const struct lk_leak *l, const char *suppression, int scanned,
		       const struct lk_text_style *st)
{
	char b[32], what[256] = "";
	if (l->cls != LK_CLASS_NOT_FREED || scanned) /* else the header already says so */
		snprintf(what, sizeof(what), " %s,", lk_leak_class_text(l->cls));
	if (suppression)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " suppressed by %s,",
			 suppression);
	fputs("  ", out);
	lk_text_paint(out, st, LK_PAINT_HEAD);
	fprintf(out, "%s bytes in %" PRIu64 " object%s%s allocated from:",
		lk_grouped(l->bytes, b, sizeof(b)), l->objects, l->objects == 1 ? "" : "s", what);
	lk_text_plain(out, st);
	putc('\n', out);
	lk_text_frames(out, "    ", l->frames, l->n_frames, st);
	if (l->why)
		why_path(out, l->why);
}

/* "  suppressions used:" and a row per pattern: objects, bytes, pattern,
 * where it comes from. */
static void suppressions_used(FILE *out, const struct lk_leak_report *p,
			      const struct lk_text_style *st)
{
	char b[32], o[32];
	struct lk_supp_use *u;
	size_t n;
	if (lk_supp_used(p, &u, &n) != 0 || !n) {
		free(u);
		return;
	}
	fputs("  suppressions used:\n", out);
	lk_text_paint(out, st, LK_PAINT_DIM);
	fprintf(out, "    %10s %14s  %s", "objects", "bytes", "pattern (source)");
	lk_text_plain(out, st);
	putc('\n', out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "    %10s %14s  %s (%s)\n", lk_grouped(u[i].objects, o, sizeof(o)),
			lk_grouped(u[i].bytes, b, sizeof(b)), u[i].pattern, u[i].source);
	free(u);
}

/* "2,222 bytes in 1 object definitely, " for one class of the summary */
static void class_counts(FILE *out, const struct lk_leak_report *p, int cls, const char *what)
{
	char b[32];
	uint64_t n = p->class_objects[cls];
	fprintf(out, "%s bytes in %" PRIu64 " object%s %s", lk_grouped(p->class_bytes[cls], b, sizeof(b)),
		n, n == 1 ? "" : "s", what);
}

/* The first line of a process's report: what it lost, by class. */
static void summary(FILE *out, const struct lk_leak_report *p, const struct lk_text_style *st)
{
	char b[32], c[32];
	const char *cmd = p->command ? p->command : "?";
	lk_text_paint(out, st, p->leaked_objects ? LK_PAINT_LOST : LK_PAINT_CLEAN);
	if (p->leaked_objects && p->scanned) {
		fprintf(out, "leakscope: %s bytes lost in %" PRIu64 " object%s (pid %d, %s): ",
			lk_grouped(p->leaked_bytes, b, sizeof(b)), p->leaked_objects,
			p->leaked_objects == 1 ? "" : "s", (int)p->pid, cmd);
		lk_text_plain(out, st);
		class_counts(out, p, LK_CLASS_DEFINITE, "definitely, ");
		class_counts(out, p, LK_CLASS_INDIRECT, "indirectly, ");
		class_counts(out, p, LK_CLASS_POSSIBLE, "possibly\n");
		return;
	}
	if (p->leaked_objects)
		fprintf(out, "leakscope: %s bytes in %" PRIu64 " object%s not freed at exit (pid %d, %s)",
			lk_grouped(p->leaked_bytes, b, sizeof(b)), p->leaked_objects,
			p->leaked_objects == 1 ? "" : "s", (int)p->pid, cmd);
	else
		fprintf(out, "leakscope: no leaks (pid %d, %s): %s allocations, %s frees",
			(int)p->pid, cmd, lk_grouped(p->stats.allocations, b, sizeof(b)),
			lk_grouped(p->stats.frees, c, sizeof(c)));
	lk_text_plain(out, st);
	putc('\n', out);
}

static void note(FILE *out, const char *text, const struct lk_text_style *st)
{
	if (!text)
		return;
	fputs("  ", out);
	lk_text_paint(out, st, LK_PAINT_NOTE);
	fprintf(out, "note: %s", text);
	lk_text_plain(out, st);
	putc('\n', out);
}

/* "  still reachable: ..." or "  suppressed: ...", with its hint unless
 * the groups are listed. */
static void counted(FILE *out, const char *what, uint64_t bytes, uint64_t objects,
		    const char *hint, const struct lk_text_style *st)
{
	char b[32];
	fprintf(out, "  %s: %s bytes in %" PRIu64 " object%s", what, lk_grouped(bytes, b, sizeof(b)),
		objects, objects == 1 ? "" : "s");
	if (hint) {
		lk_text_paint(out, st, LK_PAINT_DIM);
		fprintf(out, " (%s)", hint);
		lk_text_plain(out, st);
	}
	putc('\n', out);
}

void lk_leak_write_process_text(FILE *out, const struct lk_leak_report *p,
				const struct lk_leak_text_opts *o)
{
	const struct lk_text_style *st = &o->style;
	summary(out, p, st);
	note(out, p->alloc_note, st);
	note(out, p->heap_note, st);
	note(out, p->region_note, st);
	note(out, p->scan_note, st);
	size_t shown = o->top && o->top < p->n_leaks ? o->top : p->n_leaks;
	for (size_t i = 0; i < shown; i++)
		leak_block(out, &p->leaks[i], NULL, p->scanned, st);
	lk_text_more_sites(out, "  ", p->n_leaks - shown, st);
	if (p->class_bytes[LK_CLASS_REACHABLE])
		counted(out, "still reachable", p->class_bytes[LK_CLASS_REACHABLE],
			p->class_objects[LK_CLASS_REACHABLE],
			o->show_reachable ? NULL : "--show-reachable lists them", st);
	if (p->n_suppressed) {
		counted(out, "suppressed", p->suppressed_bytes, p->suppressed_objects,
			o->show_suppressed ? NULL : "--show-suppressed lists them", st);
		for (size_t i = 0; o->show_suppressed && i < p->n_suppressed; i++)
			leak_block(out, &p->suppressed[i], p->suppressed[i].suppression,
				   p->scanned, st);
		suppressions_used(out, p, st);
	}
	if (p->stats.stuck_slots)
		fprintf(out, "  note: %" PRIu64 " events were cut off by the process's end\n",
			p->stats.stuck_slots);
}

void lk_leak_write_text(const struct lk_run_result *r, FILE *out)
{
	for (size_t i = 0; i < r->n_reports; i++)
		lk_leak_write_process_text(out, &r->reports[i], &r->text);
	for (size_t i = 0; i < r->n_unreported; i++) {
		const struct lk_unreported *u = &r->unreported[i];
		fprintf(out, "leakscope: pid %d (%s) ", (int)u->pid, u->command);
		switch (u->why) {
		case LK_UNREPORTED_EXEC_PRIVILEGED:
			fprintf(out, "exec'd '%s', which gains privileges (setuid, setgid or file "
				"capabilities): not traced, so that it keeps them", u->program);
			break;
		case LK_UNREPORTED_EXEC_UNTRACED:
			fputs("exec'd a program that is not traced (static, or LD_PRELOAD removed)",
			      out);
			break;
		case LK_UNREPORTED_UNANNOUNCED:
			if (WIFSIGNALED(u->status))
				fprintf(out, "was killed by signal %d", WTERMSIG(u->status));
			else
				fprintf(out, "exited with status %d", WEXITSTATUS(u->status));
			fputs(" before it could announce itself (it allocated nothing)", out);
			break;
		case LK_UNREPORTED_RUNNING:
			fputs("was still running", out);
			break;
		}
		fputs(": not reported\n", out);
	}
	if (r->text.gen_suppressions)
		lk_leak_write_suppressions(r, out);
}
