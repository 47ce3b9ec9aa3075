/*
 * gen_eventlog.c - synthesize a large GHC eventlog for benchmarks:
 * gen_eventlog OUT MEGABYTES [BANDS]. Two capabilities write blocks of
 * small scheduler-like events (an undeclared-by-leakscope fixed type),
 * heap size and markers; the global buffer holds a -hT census of BANDS
 * closure types every 0.1 s of simulated time, a few bands growing.
 *
 * Written the way the GHC RTS writes an eventlog (strace of GHC 9.0.2: one
 * write(2) of 2 MiB - 8 KiB each time its buffer fills), so that the file
 * sits in the page cache as a real one does (the kernel sizes page-cache
 * folios by the writes: mapping and touching a 100 MB file took 12 ms
 * after writes of 100 KiB, 5-6 ms after the RTS's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventlog_writer.h"

#define MS 1000000ull
#define GHC_WRITE (2u * 1024u * 1024u - 8192u)

/* Write the whole chunks of w's bytes (all of them when last); keep the rest. */
static int flush_chunks(struct elw *w, FILE *out, int last)
{
	size_t done = 0;
	while (w->n - done >= GHC_WRITE || (last && done < w->n)) {
		size_t n = w->n - done < GHC_WRITE ? w->n - done : GHC_WRITE;
		if (fwrite(w->b + done, 1, n, out) != n)
			return -1;
		done += n;
	}
	memmove(w->b, w->b + done, w->n - done);
	w->n -= done;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: gen_eventlog OUT MEGABYTES [BANDS]\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "wb");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	setvbuf(out, NULL, _IONBF, 0);  /* one write(2) a chunk */
	unsigned long long target = strtoull(argv[2], NULL, 10) << 20;
	int bands = argc > 3 ? atoi(argv[3]) : 200;
	struct elw w = {0};
	unsigned long long written = 0, tick = 0;
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	elw_prof_begin(&w, 0, 7, 100 * MS);
	char label[64];
	while (written + w.n < target) {
		/* 100 ticks of 1 ms on each capability, then one census */
		for (unsigned cap = 0; cap < 2; cap++) {
			size_t b = elw_block(&w, tick * MS, cap);
			for (int t = 0; t < 100; t++) {
				uint64_t now = (tick + (unsigned)t) * MS;
				for (int k = 0; k < 30; k++) {
					elw_ev(&w, 200, now + (unsigned)k, 0, 0);
					elw_raw(&w, "\0\1\2\3\4", 5);
				}
				elw_u64ev(&w, 50, now, 1000000 + tick * 1000);
				if (t == 50)
					elw_text(&w, 58, now, "tick marker");
			}
			elw_block_end(&w, b);
		}
		tick += 100;
		size_t g = elw_block(&w, tick * MS, 0xFFFF);
		elw_sample_begin(&w, tick * MS);
		for (int i = 0; i < bands; i++) {
			snprintf(label, sizeof(label), "pkg:Some.Module.Constructor%d", i);
			elw_sample_string(&w, tick * MS, label,
					  i < 3 ? tick * 100 * (unsigned)(i + 1) : 4096u + (unsigned)i);
		}
		elw_sample_end(&w, tick * MS);
		elw_block_end(&w, g);
		size_t held = w.n;
		if (flush_chunks(&w, out, 0)) {
			perror(argv[1]);
			return 1;
		}
		written += held - w.n;
	}
	elw_end(&w);
	int rc = flush_chunks(&w, out, 1);
	free(w.b);
	return fclose(out) || rc ? 1 : 0;
}
