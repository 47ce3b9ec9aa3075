/*
 * hp_fuzz.c - libFuzzer target: arbitrary bytes through the .hp heap
 * profile reader (eventlog/hp.h), the band statistics and the text, JSON,
 * .hp and diff writers. Each input is read twice, from memory and from a
 * file; the two JSON reports must be the same. A timeline read from a .hp
 * file, written as one and read again, keeps its censuses and bands.
 * Build: make fuzz; run: build-fuzz/hp_fuzz -dict=tests/fuzz/hp.dict CORPUS.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze/timeline_diff.h"
#include "eventlog/hp.h"
#include "report/timeline/timeline_report.h"

static FILE *sink;
static int file_fd = -1;

/* The samples of tl that a .hp file written from it holds as censuses
 * (from the first to the last with a band above 0: the empty samples
 * around them are not read as censuses), or -1 if some value is too large
 * to be written as a .hp file's value (a sum of 2^64 - 1 bytes twice). */
static long censuses_written(const struct lk_timeline *tl)
{
	long first = -1, last = -1;
	for (size_t i = 0; i < tl->n_samples; i++)
		for (size_t k = 0; k < tl->n_bands; k++) {
			double v = tl->bands[k].values[i];
			if (v >= 1.8e19)
				return -1;
			if (v > 0) {
				first = first < 0 ? (long)i : first;
				last = (long)i;
			}
		}
	return first < 0 ? 0 : last - first + 1;
}

/* tl written as a .hp file and read back: its censuses, and no more
 * bands than it had. */
static void written_and_read(const struct lk_timeline *tl)
{
	long n = censuses_written(tl);
	if (n < 0)
		return;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		abort();
	lk_timeline_write_hp(tl, mem);
	fclose(mem);
	FILE *in = fmemopen(text, len, "rb");
	struct lk_timeline again;
	struct lk_profile_stats st;
	if (!in || lk_hp_read(in, &again, &st) != 0 || st.data_error) {
		fprintf(stderr, "a written .hp file cannot be read back\n");
		abort();
	}
	if (again.n_samples != (size_t)n || again.n_bands > tl->n_bands) {
		fprintf(stderr, "read back: %zu censuses, %zu bands; written %ld, %zu\n",
			again.n_samples, again.n_bands, n, tl->n_bands);
		abort();
	}
	lk_timeline_release(&again);
	fclose(in);
	free(text);
}

/* The JSON report of f (NULL if it could not be read), and every other
 * writer run once. */
static char *report(FILE *f, size_t *len, int again)
{
	struct lk_timeline tl;
	struct lk_profile_stats st;
	char *json = NULL;
	if (lk_hp_read(f, &tl, &st) != 0)
		return NULL;
	FILE *mem = open_memstream(&json, len);
	if (mem) {
		lk_timeline_write_json(&tl, mem);
		fprintf(mem, "\nlines %llu error %d\n", (unsigned long long)st.events,
			st.data_error);
		fclose(mem);
	}
	lk_timeline_write_text(&tl, sink, 0);
	struct lk_timeline_diff d;
	if (lk_timeline_diff_compute(&tl, &tl, &d) == 0) {
		lk_timeline_diff_write_text(&d, sink, 0);
		lk_timeline_diff_write_json(&d, sink);
		lk_timeline_diff_release(&d);
	}
	if (again)
		written_and_read(&tl);
	lk_timeline_release(&tl);
	return json;
}

/* A stream over a regular file holding data, or NULL. */
static FILE *as_file(const uint8_t *data, size_t size)
{
	if (file_fd < 0)
		file_fd = memfd_create("hp_fuzz", 0);
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
	char *a = report(in_memory, &n_memory, 1);
	char *b = report(in_file, &n_file, 0);
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
