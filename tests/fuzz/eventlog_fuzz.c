/*
 * eventlog_fuzz.c - libFuzzer target: arbitrary bytes through the eventlog
 * reader, the profile builder, the band statistics and the text, JSON and
 * diff writers. Each input is read twice: from memory (the reader's
 * buffer) and from a file (its mapped windows); the two JSON reports must
 * be the same (profile_harness.h). Build: make fuzz; run:
 * build-fuzz/eventlog_fuzz CORPUS. Seeds: build/unit/eventlog_test
 * --write-seeds DIR.
 */
#include <stdint.h>
#include <stdio.h>

#include "eventlog/profile.h"
#include "profile_harness.h"

static int messages;  /* USER_MSG text as markers too: for odd sizes */

static int read_eventlog(FILE *f, struct lk_timeline *tl, struct lk_profile_stats *st)
{
	struct lk_profile_options opt = {.messages = messages};
	return lk_profile_read(f, &opt, tl, st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_profile eventlog = {.name = "eventlog_fuzz",
						     .read = read_eventlog};
	if (size == 0)
		return 0;
	messages = size & 1;
	fuzz_profile_run(&eventlog, data, size);
	return 0;
}
