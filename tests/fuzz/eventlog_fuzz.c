/*
 * eventlog_fuzz.c - libFuzzer target: arbitrary bytes through the eventlog
 * reader, the profile builder, the band statistics and the text, JSON and
 * diff writers. Each input is read twice: from memory (the reader's
 * buffer) and from a file (its mapped windows); the two JSON reports must
 * be the same. Build: make fuzz; run: build-fuzz/eventlog_fuzz CORPUS.
 * Seeds: build/unit/eventlog_test --write-seeds DIR.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze/timeline_diff.h"
#include "eventlog/profile.h"
#include "report/timeline/timeline_report.h"

static FILE *sink;
static int file_fd = -1;

/* The JSON report of f (NULL if it could not be read), and every other
 * writer run once. */
static char *report(FILE *f, int messages, size_t *len)
{
	struct lk_profile_options opt = {.messages = messages};
	struct lk_timeline tl;
	struct lk_profile_stats st;
	char *json = NULL;
	if (lk_profile_read(f, &opt, &tl, &st) != 0)
		return NULL;
	FILE *mem = open_memstream(&json, len);
	if (mem) {
		lk_timeline_write_json(&tl, mem);
		fprintf(mem, "\nevents %llu bytes %llu error %d\n", (unsigned long long)st.events,
			(unsigned long long)st.bytes, st.data_error);
		fclose(mem);
	}
	lk_timeline_write_text(&tl, sink, 0);
	struct lk_timeline_diff d;
	if (lk_timeline_diff_compute(&tl, &tl, &d) == 0) {
		lk_timeline_diff_write_text(&d, sink, 0);
		lk_timeline_diff_write_json(&d, sink);
		lk_timeline_diff_release(&d);
	}
	lk_timeline_release(&tl);
	return json;
}

/* A stream over a regular file holding data, or NULL. */
static FILE *as_file(const uint8_t *data, size_t size)
{
	if (file_fd < 0)
		file_fd = memfd_create("eventlog_fuzz", 0);
	if (file_fd < 0 || ftruncate(file_fd, 0) ||
	    pwrite(file_fd, data, size, 0) != (ssize_t)size || lseek(file_fd, 0, SEEK_SET))
		return NULL;
	int fd = dup(file_fd);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	if (!f && fd >= 0)
		close(fd);
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	FILE *in_memory = fmemopen((void *)data, size, "rb"), *in_file = as_file(data, size);
	if (!in_memory || !in_file)
		abort();
	size_t n_memory = 0, n_file = 0;
	char *a = report(in_memory, size & 1, &n_memory);
	char *b = report(in_file, size & 1, &n_file);
	if (!a != !b || n_memory != n_file || (a && memcmp(a, b, n_memory) != 0)) {
		fprintf(stderr, "read from memory and from a file differ\n");
		abort();
	}
	free(a);
	free(b);
	fclose(in_memory);
	fclose(in_file);
	return 0;
}
