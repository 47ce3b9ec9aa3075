/* leak_json.c - the leak report as JSON, schema leakscope-leaks/1
 * (docs/json-leaks.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "analyze/supp_used.h"
#include "report/json.h"
#include "report/leak/leak_report.h"

static void frames(FILE *out, const struct lk_leak *l)
{
	fputs("\"stack\":[", out);
	for (size_t i = 0; i < l->n_frames; i++) {
		const struct lk_frame_text *f = &l->frames[i];
		fputs(i ? ",{\"function\":" : "{\"function\":", out);
		lk_json_string(out, f->function);
		fputs(",\"file\":", out);
		lk_json_string(out, f->file);
		if (f->file)
			fprintf(out, ",\"line\":%d", f->line);
		else
			fputs(",\"line\":null", out);
		fputs(",\"module\":", out);
		lk_json_string(out, f->module);
		fprintf(out, ",\"offset\":\"0x%" PRIx64 "\",\"inlined\":%s}", f->offset,
			f->inlined ? "true" : "false");
	}
	fputs("]", out);
}

/* --why: "why":{"root":"...","path":[{"bytes":N,"function":...},...]} */
static void why(FILE *out, const struct lk_why_path *w)
{
	fputs(",\"why\":{\"root\":", out);
	lk_json_string(out, w->root);
	fprintf(out, ",\"cut\":%s,\"path\":[", w->cut ? "true" : "false");
	for (size_t i = 0; i < w->n_steps; i++) {
		const struct lk_why_step *st = &w->steps[i];
		fprintf(out, "%s{\"bytes\":%" PRIu64 ",\"function\":", i ? "," : "", st->bytes);
		lk_json_string(out, st->site.function);
		fputs(",\"file\":", out);
		lk_json_string(out, st->site.file);
		if (st->site.file)
			fprintf(out, ",\"line\":%d", st->site.line);
		else
			fputs(",\"line\":null", out);
		fputs(",\"module\":", out);
		lk_json_string(out, st->site.module);
		fputs("}", out);
	}
	fputs("]}", out);
}

static void leak_list(FILE *out, const char *name, const struct lk_leak *l, size_t n)
{
	fprintf(out, ",\"%s\":[", name);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"bytes\":%" PRIu64 ",\"objects\":%" PRIu64 ",\"class\":\"%s\",",
			i ? "," : "", l[i].bytes, l[i].objects, lk_leak_class_id(l[i].cls));
		if (l[i].suppression) {
			fputs("\"suppression\":", out);
			lk_json_string(out, l[i].suppression);
			fputs(",", out);
		}
		frames(out, &l[i]);
		if (l[i].why)
			why(out, l[i].why);
		fputs("}", out);
	}
	fputs("]", out);
}

/* "suppressions_used":[{"pattern":...,"source":...,"matches":N,"bytes":N}] */
static void suppressions_used(FILE *out, const struct lk_leak_report *p)
{
	struct lk_supp_use *u;
	size_t n = 0;
	if (lk_supp_used(p, &u, &n) != 0)
		n = 0;
	fputs(",\"suppressions_used\":[", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",{\"pattern\":" : "{\"pattern\":", out);
		lk_json_string(out, u[i].pattern);
		fputs(",\"source\":", out);
		lk_json_string(out, u[i].source);
		fprintf(out, ",\"matches\":%" PRIu64 ",\"bytes\":%" PRIu64 "}", u[i].objects,
			u[i].bytes);
	}
	fputs("]", out);
	free(u);
}

/* Marks and snapshots, in the order they happened. */
static void marks(FILE *out, const struct lk_leak_report *p)
{
	fputs(",\"marks\":[", out);
	for (size_t i = 0; i < p->n_marks; i++) {
		const struct lk_mark *m = &p->marks[i];
		fprintf(out, "%s{\"kind\":\"%s\",\"text\":", i ? "," : "",
			m->snapshot ? "snapshot" : "mark");
		lk_json_string(out, m->text);
		fprintf(out, ",\"event\":%" PRIu64 ",\"live_bytes\":%" PRIu64 ",\"tid\":%u}",
			m->pos, m->live_bytes, m->tid);
	}
	fprintf(out, "],\"marks_dropped\":%" PRIu64, p->marks_dropped);
}

void lk_leak_write_process_json(FILE *out, const struct lk_leak_report *p)
{
	fprintf(out, "{\"pid\":%d,\"ppid\":%d,\"command\":", (int)p->pid, (int)p->ppid);
	lk_json_string(out, p->command);
	fputs(",\"exe\":", out);
	lk_json_string(out, p->exe);
	fprintf(out, ",\"root\":%s,\"forked\":%s,\"end\":", p->root ? "true" : "false",
		p->forked ? "true" : "false");
	if (!p->has_status)
		fputs("{}", out);
	else if (WIFSIGNALED(p->status))
		fprintf(out, "{\"signal\":%d}", WTERMSIG(p->status));
	else
		fprintf(out, "{\"code\":%d}", WEXITSTATUS(p->status));
	const struct lk_session_stats *s = &p->stats;
	fprintf(out, ",\"stats\":{\"allocations\":%" PRIu64 ",\"frees\":%" PRIu64
		",\"unmatched_frees\":%" PRIu64 ",\"bytes_allocated\":%" PRIu64
		",\"peak_bytes\":%" PRIu64 ",\"cut_off_events\":%" PRIu64 "}",
		s->allocations, s->frees, s->unmatched_frees, s->bytes_allocated, s->peak_bytes,
		s->stuck_slots);
	fprintf(out, ",\"summary\":{\"leaked_bytes\":%" PRIu64 ",\"leaked_objects\":%" PRIu64
		",\"suppressed_bytes\":%" PRIu64 ",\"suppressed_objects\":%" PRIu64 "}",
		p->leaked_bytes, p->leaked_objects, p->suppressed_bytes, p->suppressed_objects);
	fprintf(out, ",\"scanned\":%s,", p->scanned ? "true" : "false");
	if (p->attach)
		fprintf(out, "\"attach\":{\"pause_us\":%" PRIu64 ",\"tries\":%u,\"blocks\":%" PRIu64
			",\"bytes\":%" PRIu64 ",\"chunks\":%" PRIu64 ",\"in_tcache\":%" PRIu64
			",\"in_fastbins\":%" PRIu64 ",\"arenas\":%u,\"heaps\":%u,\"mmapped\":%u},",
			p->attach->pause_us, p->attach->tries, p->attach->blocks, p->attach->bytes,
			p->attach->chunks, p->attach->in_tcache, p->attach->in_fastbins,
			p->attach->arenas, p->attach->heaps, p->attach->mmapped);
	if (p->alloc_note) {
		fputs("\"alloc_note\":", out);
		lk_json_string(out, p->alloc_note);
		fputs(",", out);
	}
	if (p->heap_note) {
		fputs("\"heap_note\":", out);
		lk_json_string(out, p->heap_note);
		fputs(",", out);
	}
	if (p->scan_note) {
		fputs("\"scan_note\":", out);
		lk_json_string(out, p->scan_note);
		fputs(",", out);
	}
	fprintf(out, "\"region_intact\":%s,", p->region_note ? "false" : "true");
	if (p->region_note) {
		fputs("\"region_note\":", out);
		lk_json_string(out, p->region_note);
		fputs(",", out);
	}
	fputs("\"classes\":{", out);
	for (int c = 0; c < LK_CLASS_COUNT; c++)
		fprintf(out, "%s\"%s\":{\"bytes\":%" PRIu64 ",\"objects\":%" PRIu64 "}", c ? "," : "",
			lk_leak_class_id(c), p->class_bytes[c], p->class_objects[c]);
	fputs("}", out);
	leak_list(out, "leaks", p->leaks, p->n_leaks);
	leak_list(out, "suppressed", p->suppressed, p->n_suppressed);
	suppressions_used(out, p);
	marks(out, p);
	fputs("}", out);
}

void lk_leak_write_json(const struct lk_run_result *r, FILE *out)
{
	fputs("{\"schema\":\"leakscope-leaks/1\",\"command\":[", out);
	for (size_t i = 0; r->argv && r->argv[i]; i++) {
		if (i)
			putc(',', out);
		lk_json_string(out, r->argv[i]);
	}
	fprintf(out, "],\"exit\":{\"code\":%d,\"signal\":", r->exit_code);
	if (r->signal)
		fprintf(out, "%d}", r->signal);
	else
		fputs("null}", out);
	fputs(",\"processes\":[", out);
	for (size_t i = 0; i < r->n_reports; i++) {
		if (i)
			putc(',', out);
		lk_leak_write_process_json(out, &r->reports[i]);
	}
	fputs("],\"unreported\":[", out);
	for (size_t i = 0; i < r->n_unreported; i++) {
		static const char *const why[] = {"running", "exec-untraced", "exec-privileged",
						  "ended-unannounced"};
		const struct lk_unreported *u = &r->unreported[i];
		fprintf(out, "%s{\"pid\":%d,\"command\":", i ? "," : "", (int)u->pid);
		lk_json_string(out, u->command);
		fprintf(out, ",\"why\":\"%s\"", why[u->why]);
		if (u->program) {
			fputs(",\"program\":", out);
			lk_json_string(out, u->program);
		}
		if (u->why == LK_UNREPORTED_UNANNOUNCED)
			fprintf(out, ",\"end\":{\"%s\":%d}", WIFSIGNALED(u->status) ? "signal" : "code",
				WIFSIGNALED(u->status) ? WTERMSIG(u->status) : WEXITSTATUS(u->status));
		fputs("}", out);
	}
	fputs("]}\n", out);
}
