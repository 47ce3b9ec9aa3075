/* leak_text.c - the leak report for a person (see leak_report.h). */
#include <inttypes.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "report/leak_report.h"
#include "report/text_frames.h"

/* --why: the root, then each block of the chain down to this group's. */
static void why_path(FILE *out, const struct lk_why_path *w)
{
	char b[32];
	fprintf(out, "  kept by %s%s\n", w->root, w->n_steps > 1 ? ", through:" : "");
	for (size_t i = 0; i + 1 < w->n_steps; i++) {
		const struct lk_frame_text *f = &w->steps[i].site;
		fprintf(out, "    a block of %s bytes from %s", lk_grouped(w->steps[i].bytes, b,
			sizeof(b)), f->function ? f->function : f->module ? f->module : "?");
		if (f->file)
			fprintf(out, " (%s:%d)", f->file, f->line);
		fputc('\n', out);
	}
}

static void leak_block(FILE *out, const struct lk_leak *l, const char *suppression, int scanned)
{
	char b[32], what[256] = "";
	if (l->cls != LK_CLASS_NOT_FREED || scanned) /* else the header already says so */
		snprintf(what, sizeof(what), " %s,", lk_leak_class_text(l->cls));
	if (suppression)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " suppressed by %s,",
			 suppression);
	fprintf(out, "  %s bytes in %" PRIu64 " object%s%s allocated from:\n",
		lk_grouped(l->bytes, b, sizeof(b)), l->objects, l->objects == 1 ? "" : "s", what);
	lk_text_frames(out, "    ", l->frames, l->n_frames);
	if (l->why)
		why_path(out, l->why);
}

/* A suppression for l: its innermost frame with a function name outside
 * the C/C++ runtime (that is where the program allocated), else frame 0. */
static void suppression_line(FILE *out, const struct lk_leak *l)
{
	const struct lk_frame_text *pick = NULL;
	for (size_t i = 0; i < l->n_frames && !pick; i++)
		if (l->frames[i].function && !lk_suppress_system_module(l->frames[i].module))
			pick = &l->frames[i];
	if (!pick && l->n_frames)
		pick = &l->frames[0];
	if (pick && pick->function)
		fprintf(out, "leak:^%s$\n", pick->function);
	else if (pick && pick->module)
		fprintf(out, "leak:%s\n", pick->module);
}

/* "2,222 bytes in 1 object definitely, " for one class of the summary */
static void class_counts(FILE *out, const struct lk_leak_report *p, int cls, const char *what)
{
	char b[32];
	uint64_t n = p->class_objects[cls];
	fprintf(out, "%s bytes in %" PRIu64 " object%s %s", lk_grouped(p->class_bytes[cls], b, sizeof(b)),
		n, n == 1 ? "" : "s", what);
}

void lk_leak_write_process_text(FILE *out, const struct lk_leak_report *p, size_t top,
				int show_suppressed, int show_reachable, int gen)
{
	char b[32], c[32];
	const char *cmd = p->command ? p->command : "?";
	const uint64_t *cb = p->class_bytes;
	if (p->leaked_objects && p->scanned) {
		fprintf(out, "leakscope: %s bytes lost in %" PRIu64 " object%s (pid %d, %s): ",
			lk_grouped(p->leaked_bytes, b, sizeof(b)), p->leaked_objects,
			p->leaked_objects == 1 ? "" : "s", (int)p->pid, cmd);
		class_counts(out, p, LK_CLASS_DEFINITE, "definitely, ");
		class_counts(out, p, LK_CLASS_INDIRECT, "indirectly, ");
		class_counts(out, p, LK_CLASS_POSSIBLE, "possibly\n");
	} else if (p->leaked_objects) {
		fprintf(out, "leakscope: %s bytes in %" PRIu64 " object%s not freed at exit (pid %d, %s)\n",
			lk_grouped(p->leaked_bytes, b, sizeof(b)), p->leaked_objects,
			p->leaked_objects == 1 ? "" : "s", (int)p->pid, cmd);
	} else {
		fprintf(out, "leakscope: no leaks (pid %d, %s): %s allocations, %s frees\n",
			(int)p->pid, cmd, lk_grouped(p->stats.allocations, b, sizeof(b)),
			lk_grouped(p->stats.frees, c, sizeof(c)));
	}
	if (p->alloc_note)
		fprintf(out, "  note: %s\n", p->alloc_note);
	if (p->heap_note)
		fprintf(out, "  note: %s\n", p->heap_note);
	if (p->region_note)
		fprintf(out, "  note: %s\n", p->region_note);
	if (p->scan_note)
		fprintf(out, "  note: %s\n", p->scan_note);
	size_t shown = top && top < p->n_leaks ? top : p->n_leaks;
	for (size_t i = 0; i < shown; i++)
		leak_block(out, &p->leaks[i], NULL, p->scanned);
	if (shown < p->n_leaks)
		fprintf(out, "  ... and %zu more allocation sites (--top 0 lists them all)\n",
			p->n_leaks - shown);
	if (cb[LK_CLASS_REACHABLE])
		fprintf(out, "  still reachable: %s bytes in %" PRIu64 " object%s%s\n",
			lk_grouped(cb[LK_CLASS_REACHABLE], b, sizeof(b)), p->class_objects[LK_CLASS_REACHABLE],
			p->class_objects[LK_CLASS_REACHABLE] == 1 ? "" : "s",
			show_reachable ? "" : " (--show-reachable lists them)");
	if (p->n_suppressed) {
		fprintf(out, "  suppressed: %s bytes in %" PRIu64 " object%s%s\n",
			lk_grouped(p->suppressed_bytes, b, sizeof(b)), p->suppressed_objects,
			p->suppressed_objects == 1 ? "" : "s",
			show_suppressed ? "" : " (--show-suppressed lists them)");
		for (size_t i = 0; show_suppressed && i < p->n_suppressed; i++)
			leak_block(out, &p->suppressed[i], p->suppressed[i].suppression,
				   p->scanned);
	}
	if (gen && p->n_leaks) {
		fprintf(out, "  suppressions for these leaks (put them in a file for --suppressions):\n");
		for (size_t i = 0; i < p->n_leaks; i++)
			if (p->leaks[i].cls != LK_CLASS_REACHABLE)
				suppression_line(out, &p->leaks[i]);
	}
	if (p->stats.stuck_slots)
		fprintf(out, "  note: %" PRIu64 " events were cut off by the process's end\n",
			p->stats.stuck_slots);
}

void lk_leak_write_text(const struct lk_run_result *r, FILE *out)
{
	for (size_t i = 0; i < r->n_reports; i++)
		lk_leak_write_process_text(out, &r->reports[i], 0, r->show_suppressed,
					   r->show_reachable, r->gen_suppressions);
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
}
