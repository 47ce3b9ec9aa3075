/*
 * hp_fuzz.c - libFuzzer target: arbitrary bytes through the .hp heap
 * profile reader (eventlog/hp.h), the band statistics and the text, JSON,
 * .hp and diff writers. Each input is read twice, from memory and from a
 * file; the two JSON reports must be the same (profile_harness.h). A
 * timeline read from a .hp file, written as one and read again, keeps its
 * censuses and bands.
 * Build: make fuzz; run: build-fuzz/hp_fuzz -dict=tests/fuzz/hp.dict CORPUS.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "eventlog/hp.h"
#include "profile_harness.h"
#include "report/timeline/timeline_report.h"

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

static int read_hp(FILE *f, struct lk_timeline *tl, struct lk_profile_stats *st)
{
	return lk_hp_read(f, tl, st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_profile hp = {.name = "hp_fuzz", .read = read_hp,
					       .check = written_and_read};
	if (size == 0)
		return 0;
	fuzz_profile_run(&hp, data, size);
	return 0;
}
