/*
 * trace_fuzz.c - libFuzzer target: arbitrary bytes through the trace
 * reader, every record's fields and strings touched, then through the
 * analysis of `leakscope report` (history/, which decodes the events of
 * version 2 traces itself) and its leaks with their verdicts. Checksums are skipped for 3 inputs in 4
 * (LK_TRACE_NOVERIFY), so that mutations reach the record decoders
 * instead of stopping at the first CRC. Build: make fuzz;
 * run: build-fuzz/trace_fuzz CORPUS. Seeds: build/unit/trace_test
 * --write-seeds DIR.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "history/history.h"
#include "history/verdicts.h"
#include "trace/reader.h"

static volatile size_t sink;

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	struct lk_trace_reader *r;
	struct lk_trace_record rec;
	int flags = size % 4 ? LK_TRACE_NOVERIFY : 0;
	int rc = lk_trace_reader_open(f, flags, &r);
	if (rc == 0) {
		touch(lk_trace_reader_meta(r)->cmdline);
		int retried = 0;
		for (;;) {
			rc = lk_trace_reader_next(r, &rec);
			if (rc == LK_ETRUNC && !retried) {
				retried = 1;      /* follow mode: try again once */
				continue;
			}
			if (rc != 1)
				break;
			sink += rec.t + rec.addr + rec.size + rec.tid + rec.stack;
			touch(rec.text);
			for (size_t i = 0; i < rec.n_frames; i++)
				sink += rec.frames[i];
			if (rec.module) {
				touch(rec.module->path);
				for (size_t i = 0; i < rec.module->build_id_len; i++)
					sink += rec.module->build_id[i];
				for (size_t i = 0; i < rec.module->n_ranges; i++)
					sink += rec.module->ranges[i].end;
			}
			for (size_t i = 0; i < rec.n_symbol; i++) {
				touch(rec.symbol[i].function);
				touch(rec.symbol[i].file);
				touch(rec.symbol[i].module);
			}
			if (rec.totals)
				sink += rec.totals->events;
			if (rec.scan) {
				touch(rec.scan->note);
				touch(rec.scan->heap_note);
			}
			sink += rec.serial + (size_t)rec.cls;
		}
		lk_trace_reader_close(r);
	}
	fclose(f);
	if ((f = fmemopen((void *)data, size, "rb"))) {
		struct lk_hist_options o = {.from = {.kind = LK_POINT_START},
					    .to = {.kind = LK_POINT_END}, .reader_flags = flags,
					    .cells = 1};
		struct lk_history h;
		struct lk_suppressions sup;
		struct lk_leak_report leaks;
		lk_suppressions_init(&sup);
		if (lk_history_read(f, &o, &h) == 0 && lk_suppressions_add_builtin(&sup) == 0 &&
		    lk_history_leaks(&h, &sup, 1, &leaks) == 0) {
			sink += h.events + h.final_bytes + h.n_sites + leaks.n_leaks;
			lk_leak_report_release(&leaks);
		}
		lk_suppressions_release(&sup);
		lk_history_release(&h);
		fclose(f);
	}
	return 0;
}
