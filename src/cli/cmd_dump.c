/*
 * cmd_dump.c - `leakscope dump TRACE`: every record of a trace file, one
 * per line, in file order, for tests and bug reports. A damaged or
 * truncated trace gets the reader's message after the records read before
 * the damage. Exit status: 0 a complete trace; 1 damaged, truncated (no
 * END: the recording was cut off or is still being written) or unreadable,
 * or standard output cannot be written; 2 usage.
 *
 * Line format (docs/recording.md): the time in seconds ("-" for records
 * without one), the kind, then key=value fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/leaks.h"
#include "cli/cli.h"
#include "common/error.h"
#include "trace/reader.h"

static const struct lk_cli_opt options[] = {LK_CLI_OPT_END};

const struct lk_cli_cmd lk_cli_dump = {
	.name = "dump",
	.summary = "print every record of a trace file",
	.synopsis = "[OPTIONS] TRACE",
	.about =
	"Print every record of a trace file written by `leakscope record`, one per\n"
	"line, in file order: the header, then\n"
	"  TIME alloc tid=T addr=A size=N stack=S\n"
	"  TIME free tid=T addr=A\n"
	"  TIME sample rss=N live_bytes=N live_blocks=N\n"
	"  TIME mark tid=T text=\"...\"      TIME snapshot tid=T name=\"...\"\n"
	"  - stack id=S frames=A,A,...\n"
	"  TIME module id=M path=P bias=A build_id=HEX ranges=LO-HI\n"
	"  - symbol addr=A module=M frames=FUNCTION at FILE:LINE in MODULE+OFFSET | ...\n"
	"  TIME end events=N allocs=N frees=N bytes=N stacks=N modules=N symbols=N\n"
	"           chunks=N\n"
	"TIME is in seconds since the trace started. A damaged or truncated trace\n"
	"(no end record) is printed up to the damage, then reported on stderr.\n",
	.opts = options,
	.notes =
	"TRACE is a file, or a pipe (dump reads it once, in order).\n"
	"\n"
	"exit status: 0 complete trace; 1 damaged, truncated or unreadable, or the\n"
	"output could not be written; 2 usage error.\n",
};

/* text, quoted, with ", \ and bytes outside printable ASCII escaped */
static void put_quoted(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(out, "\\x%02x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void put_frames(FILE *out, const struct lk_trace_record *r)
{
	fputs(" frames=", out);
	for (size_t i = 0; i < r->n_symbol; i++) {
		const struct lk_frame_text *f = &r->symbol[i];
		fprintf(out, "%s%s", i ? " | " : "", f->function ? f->function : "??");
		if (f->file)
			fprintf(out, " at %s:%d", f->file, f->line);
		fprintf(out, " in %s+0x%llx%s", f->module ? f->module : "?",
			(unsigned long long)f->offset, f->inlined ? " (inlined)" : "");
	}
}

static void put_module(FILE *out, const struct lk_trace_module *m)
{
	fprintf(out, " id=%u path=%s bias=0x%llx build_id=", m->id, m->path ? m->path : "?",
		(unsigned long long)m->load_bias);
	for (size_t i = 0; i < m->build_id_len; i++)
		fprintf(out, "%02x", m->build_id[i]);
	if (!m->build_id_len)
		fputc('-', out);
	fputs(" ranges=", out);
	for (size_t i = 0; i < m->n_ranges; i++)
		fprintf(out, "%s0x%llx-0x%llx", i ? "," : "", (unsigned long long)m->ranges[i].start,
			(unsigned long long)m->ranges[i].end);
}

/* " name=\"text\"" when there is a text. */
static void put_note(FILE *out, const char *name, const char *text)
{
	if (!text)
		return;
	fprintf(out, " %s=", name);
	put_quoted(out, text, strlen(text));
}

static void put_record(FILE *out, const struct lk_trace_meta *meta,
		       const struct lk_trace_record *r)
{
	double t = lk_trace_seconds(meta, r->t);
	switch (r->type) {
	case LK_TRACE_ALLOC:
		fprintf(out, "%.6f alloc tid=%u addr=0x%llx size=%llu stack=%u\n", t, r->tid,
			(unsigned long long)r->addr, (unsigned long long)r->size, r->stack);
		break;
	case LK_TRACE_FREE:
		fprintf(out, "%.6f free tid=%u addr=0x%llx\n", t, r->tid, (unsigned long long)r->addr);
		break;
	case LK_TRACE_SAMPLE:
		fprintf(out, "%.6f sample rss=%llu live_bytes=%llu live_blocks=%llu\n", t,
			(unsigned long long)r->rss, (unsigned long long)r->live_bytes,
			(unsigned long long)r->live_blocks);
		break;
	case LK_TRACE_MARK:
	case LK_TRACE_SNAPSHOT:
		fprintf(out, "%.6f %s tid=%u %s=", t, r->type == LK_TRACE_MARK ? "mark" : "snapshot",
			r->tid, r->type == LK_TRACE_MARK ? "text" : "name");
		put_quoted(out, r->text, r->text_len);
		fputc('\n', out);
		break;
	case LK_TRACE_STACK:
		fprintf(out, "- stack id=%u frames=", r->stack);
		for (size_t i = 0; i < r->n_frames; i++)
			fprintf(out, "%s0x%llx", i ? "," : "", (unsigned long long)r->frames[i]);
		fputc('\n', out);
		break;
	case LK_TRACE_MODULE:
		fprintf(out, "%.6f module", lk_trace_seconds(meta, r->module->t));
		put_module(out, r->module);
		fputc('\n', out);
		break;
	case LK_TRACE_SYMBOL:
		fprintf(out, "- symbol addr=0x%llx module=%u", (unsigned long long)r->addr, r->module_id);
		put_frames(out, r);
		fputc('\n', out);
		break;
	case LK_TRACE_END: {
		const struct lk_trace_totals *e = r->totals;
		fprintf(out, "%.6f end events=%llu allocs=%llu frees=%llu bytes=%llu stacks=%llu "
			"modules=%llu symbols=%llu chunks=%llu\n", lk_trace_seconds(meta, e->t_last),
			(unsigned long long)e->events, (unsigned long long)e->allocs,
			(unsigned long long)e->frees, (unsigned long long)e->bytes_allocated,
			(unsigned long long)e->stacks, (unsigned long long)e->modules,
			(unsigned long long)e->symbols, (unsigned long long)e->chunks);
		break;
	}
	case LK_TRACE_SCAN:
		fprintf(out, "%.6f scan %s", t, r->scan->state == LK_TRACE_SCANNED ? "made" : "none");
		put_note(out, "note", r->scan->note);
		put_note(out, "heap_note", r->scan->heap_note);
		fputc('\n', out);
		break;
	case LK_TRACE_CLASS:
		fprintf(out, "- verdict alloc=%llu addr=0x%llx size=%llu class=%s",
			(unsigned long long)r->serial, (unsigned long long)r->addr,
			(unsigned long long)r->size,
			r->cls == LK_TRACE_IGNORED ? "ignored" : lk_leak_class_id(r->cls));
		if (r->stack)
			fprintf(out, " leader_stack=%u", r->stack);
		fputc('\n', out);
		break;
	default:
		fprintf(out, "- unknown type=%d\n", r->type);
		break;
	}
}

static void put_header(FILE *out, const struct lk_trace_meta *m)
{
	fprintf(out, "# leakscope trace %u.%u pid=%u start_ns=%llu tick_ns=%u resolution_ns=%u cmd=",
		m->version, m->minor, m->pid, (unsigned long long)m->start_ns, m->tick_ns,
		m->clock_res_ns);
	put_quoted(out, m->cmdline ? m->cmdline : "", m->cmdline ? m->cmdline_len : 0);
	fputc('\n', out);
}

/* Print path (a file, or a pipe: dump streams) on standard output; 0
 * complete, 1 otherwise (message printed). A failed write ends it. */
static int dump(const char *path)
{
	FILE *f = lk_cli_open_in(path, LK_FILE_PIPE);
	if (!f)
		return 1;
	FILE *out = lk_cli_open_out("-");
	if (!out) {
		lk_cli_close_in(f, path);
		return 1;
	}
	struct lk_trace_reader *r;
	int rc = lk_trace_reader_open(f, 0, &r);
	if (rc == 0) {
		const struct lk_trace_meta *meta = lk_trace_reader_meta(r);
		put_header(out, meta);
		struct lk_trace_record rec;
		while (!ferror(out) && (rc = lk_trace_reader_next(r, &rec)) == 1)
			put_record(out, meta, &rec);
		lk_trace_reader_close(r);
	}
	int over = lk_cli_close_in(f, path);   /* an endless pipe: said */
	if (lk_cli_close_out(out, 0) || over)
		return 1;
	if (rc == 0)
		return 0;
	const char *d = *lk_error_detail() ? lk_error_detail() : lk_error_name(rc);
	if (rc == LK_ETRUNC)
		lk_cli_error("'%s': %s; no end record: the recording was cut off or is "
			     "still being written", path, d);
	else
		lk_cli_error("cannot read '%s': %s", path, d);
	return 1;
}

int cmd_dump(int argc, char **argv)
{
	struct lk_cli_parser p;
	int c;
	lk_cli_parse_init(&p, &lk_cli_dump, argc, argv);
	while ((c = lk_cli_next(&p)) > 0)
		;
	if (c == LK_CLI_STOP)
		return p.status;
	if (p.n_args == 0)
		return lk_cli_usage_error("dump", "no trace given");
	if (p.n_args > 1)
		return lk_cli_usage_error("dump", "one trace at a time");
	return dump(p.args[0]);
}
