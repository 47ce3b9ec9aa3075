/*
 * eventlog_fuzz.c - libFuzzer target: arbitrary bytes through the eventlog
 * reader, the profile builder, the band statistics and the text, JSON and
 * diff writers. Build: make fuzz; run: build-fuzz/eventlog_fuzz CORPUS.
 * Seeds: build/unit/eventlog_test --write-seeds DIR.
 */
#include <stdint.h>
#include <stdio.h>

#include "analyze/timeline_diff.h"
#include "eventlog/profile.h"
#include "report/timeline_report.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	FILE *f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	struct lk_profile_options opt = {.messages = size & 1};
	struct lk_timeline tl;
	struct lk_profile_stats st;
	if (lk_profile_read(f, &opt, &tl, &st) == 0) {
		lk_timeline_write_text(&tl, sink, 0);
		lk_timeline_write_json(&tl, sink);
		struct lk_timeline_diff d;
		if (lk_timeline_diff_compute(&tl, &tl, &d) == 0) {
			lk_timeline_diff_write_text(&d, sink, 0);
			lk_timeline_diff_write_json(&d, sink);
			lk_timeline_diff_release(&d);
		}
		lk_timeline_release(&tl);
	}
	fclose(f);
	return 0;
}
