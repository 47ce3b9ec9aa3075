/*
 * gen_trace.c - writes the synthetic traces of the CLI tests of `leakscope
 * report` and `leakscope diff` (tests/cli/54x-*.sh) with the real writer.
 *
 *   gen_trace basic OUT [SCALE [SWAP]]  the scenario below; SCALE multiplies
 *                        the late leak; SWAP defines the stacks in another
 *                        order (other ids, same symbols)
 *   gen_trace growth OUT N   a server: N requests, a marker each, 1,024 B
 *                        leaked per request, temporaries and a bounded cache
 *   gen_trace big OUT N      N events of churn over 64 sites (benchmarks)
 *   gen_trace wide OUT N [BIGGER]  N sites (leaf_K, called by main) leaking
 *                        one block of 100 B each (100 K B with BIGGER 1),
 *                        never freed, site K at 10 K microseconds
 *   gen_trace newer OUT      `basic` claiming the next format version
 *   gen_trace copy IN OUT    IN's records written again by this writer (a
 *                        trace of an older format version in the current one)
 *
 * basic (times in microseconds; stacks: 1 keep, 2 leak_early, 3 temp_buf,
 * 4 cache_grow, 5 leak_late with make_node inlined into it):
 *   500        keep: 1,000,000 B (freed at 9000)
 *   1100..1109 leak_early: 10 x 3,072 B, never freed
 *   2000..2099 temp_buf: 50 x 64 B allocated and freed at once (thread 2)
 *   3000       snapshot "before"
 *   4000..4019 cache_grow: 20 x 512 B; 5000..5004 the first 5 freed
 *   6000       mark "frame 1"; 6100.. leak_late: 4*SCALE x 100 B (thread 3)
 *   7000       mark "frame 9";  8000 snapshot "after";  9000 keep freed
 *   samples of RSS 1,000,000 (t 0), 8,000,000 (t 5000), 5,000,000 (t 10000)
 * Peak: 1,040,960 B at 4019; final: 38,400 + 400*SCALE B.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/trace_gen.h"
#include "trace/format.h"
#include "trace/reader.h"

static void basic(const char *out, int scale, int swap)
{
	struct lk_trace_writer *w = gen_open(out, 0);
	static const char *const names[] = {NULL, "keep", "leak_early", "temp_buf", "cache_grow", "leak_late"};
	uint32_t id_of[6];
	for (uint32_t k = 1; k <= 5; k++) {
		uint32_t kk = swap ? 6 - k : k;    /* site kk gets id k */
		id_of[kk] = k;
		gen_stack(w, k, kk, names[kk], kk == 5 ? "make_node" : NULL);
	}
	uint64_t a = 0x10000000;
	gen_check(lk_trace_write_sample(w, 0, 1000000, 0, 0), "sample");
	gen_check(lk_trace_write_alloc(w, 500, 1, 0x7f0000000000ull, 1000000, id_of[1]), "alloc");
	for (int i = 0; i < 10; i++)
		lk_trace_write_alloc(w, 1100 + i, 1, a + 0x1000 * i, 3072, id_of[2]);
	for (int i = 0; i < 50; i++) {
		lk_trace_write_alloc(w, 2000 + 2 * i, 2, 0x20000000, 64, id_of[3]);
		lk_trace_write_free(w, 2001 + 2 * i, 2, 0x20000000);
	}
	lk_trace_write_snapshot(w, 3000, 1, "before");
	for (int i = 0; i < 20; i++)
		lk_trace_write_alloc(w, 4000 + i, 1, 0x30000000 + 0x400 * i, 512, id_of[4]);
	lk_trace_write_sample(w, 5000, 8000000, 0, 0);
	for (int i = 0; i < 5; i++)
		lk_trace_write_free(w, 5000 + i, 1, 0x30000000 + 0x400 * i);
	lk_trace_write_mark(w, 6000, 1, "frame 1");
	for (int i = 0; i < 4 * scale; i++)
		lk_trace_write_alloc(w, 6100 + i, 3, 0x40000000 + 0x100 * i, 100, id_of[5]);
	lk_trace_write_mark(w, 7000, 1, "frame 9");
	lk_trace_write_snapshot(w, 8000, 1, "after");
	lk_trace_write_free(w, 9000, 1, 0x7f0000000000ull);
	lk_trace_write_sample(w, 10000, 5000000, 0, 0);
	gen_check(lk_trace_writer_close(w), "close");
}

static void growth(const char *out, long n)
{
	struct lk_trace_writer *w = gen_open(out, 0);
	gen_stack(w, 1, 1, "leak_request", NULL);
	gen_stack(w, 2, 2, "parse_request", NULL);
	gen_stack(w, 3, 3, "cache_entry", NULL);
	uint64_t t = 100;
	char text[64];
	for (long i = 0; i < n; i++, t += 1000) {
		snprintf(text, sizeof(text), "request %ld", i);
		lk_trace_write_mark(w, t, 1, text);
		lk_trace_write_alloc(w, t + 10, 1, 0x50000000 + 0x1000 * (uint64_t)i, 4096, 2);
		lk_trace_write_free(w, t + 15, 1, 0x50000000 + 0x1000 * (uint64_t)i);
		lk_trace_write_alloc(w, t + 20, 1, 0x10000000 + 0x800 * (uint64_t)i, 1024, 1);
		lk_trace_write_alloc(w, t + 40, 1, 0x60000000 + 0x1000 * (uint64_t)(i % 4), 2000, 3);
		if (i >= 3)
			lk_trace_write_free(w, t + 50, 1, 0x60000000 + 0x1000 * (uint64_t)((i - 3) % 4));
		if (i % 10 == 0)
			lk_trace_write_sample(w, t + 60, 4000000 + 1024 * (uint64_t)i, 0, 0);
	}
	gen_check(lk_trace_writer_close(w), "close");
}

/* n events: 64 sites, up to 4096 live blocks per thread of 2, sizes of a
 * few classes, a marker every 100,000 events. */
static void big(const char *out, long n)
{
	struct lk_trace_writer *w = gen_open(out, 0);
	char fn[32];
	for (uint32_t k = 1; k <= 64; k++) {
		snprintf(fn, sizeof(fn), "site_%u", k);
		gen_stack(w, k, k, fn, NULL);
	}
	enum { SLOTS = 4096 };
	static uint64_t live[2][SLOTS];
	uint64_t x = 88172645463325252ull, t = 0;
	for (long e = 0; e < n; e++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		uint32_t tid = 100 + (uint32_t)(x & 1), th = (uint32_t)(x & 1);
		uint32_t slot = (uint32_t)(x >> 8) % SLOTS;
		t += (x >> 40) & 3;
		if (e % 100000 == 0)
			lk_trace_write_mark(w, t, tid, "tick");
		if (live[th][slot]) {
			lk_trace_write_free(w, t, tid, live[th][slot]);
			live[th][slot] = 0;
		} else {
			uint64_t addr = 0x10000000ull * (th + 1) + 0x400ull * slot + ((x >> 20) & 0x30);
			uint64_t size = 16u << ((x >> 30) % 6);
			lk_trace_write_alloc(w, t, tid, addr, size, 1 + (uint32_t)((x >> 34) % 64));
			live[th][slot] = addr;
		}
	}
	gen_check(lk_trace_writer_close(w), "close");
}

static void wide(const char *out, long n, int bigger)
{
	struct lk_trace_writer *w = gen_open(out, 0);
	char fn[32];
	for (uint32_t k = 1; k <= n; k++) {
		uint64_t pc = 0x500000ull + 0x10ull * k, frames[3] = {pc, GEN_MAIN_PC, GEN_START_PC};
		snprintf(fn, sizeof(fn), "leaf_%u", k);
		struct lk_frame_text f = {.function = fn, .file = "/src/wide.c", .line = (int)k,
					  .module = "genprog", .offset = pc - 0x400000};
		gen_check(lk_trace_write_symbol(w, pc, 1, &f, 1), "symbol");
		gen_check(lk_trace_write_stack(w, k, frames, 3), "stack");
	}
	for (uint32_t k = 1; k <= n; k++)
		lk_trace_write_alloc(w, 10u * k, 100, 0x10000000ull + (bigger ? 0x100000ull : 0x100ull) * k,
				     bigger ? 100ull * k : 100, k);
	gen_check(lk_trace_writer_close(w), "close");
}

/* basic, then the header patched to the next major version (valid CRC). */
static void newer(const char *out)
{
	basic(out, 1, 0);
	FILE *f = fopen(out, "r+b");
	uint8_t hdr[LK_TRACE_HEADER_FIXED + 1024];
	if (!f || fread(hdr, 1, LK_TRACE_HEADER_FIXED, f) != LK_TRACE_HEADER_FIXED)
		exit(2);
	uint32_t hs = lk_get_le32(hdr + 16);
	if (hs > sizeof(hdr) || fseek(f, 0, SEEK_SET) || fread(hdr, 1, hs, f) != hs)
		exit(2);
	lk_put_le32(hdr + 8, LK_TRACE_VERSION + 1);
	lk_put_le32(hdr + hs - 4, lk_trace_crc32(0, hdr, hs - 4));
	if (fseek(f, 0, SEEK_SET) || fwrite(hdr, 1, hs, f) != hs || fclose(f))
		exit(2);
}

static int copy_record(struct lk_trace_writer *w, const struct lk_trace_record *r)
{
	switch (r->type) {
	case LK_TRACE_ALLOC: return lk_trace_write_alloc(w, r->t, r->tid, r->addr, r->size, r->stack);
	case LK_TRACE_FREE: return lk_trace_write_free(w, r->t, r->tid, r->addr);
	case LK_TRACE_MARK: return lk_trace_write_mark(w, r->t, r->tid, r->text);
	case LK_TRACE_SNAPSHOT: return lk_trace_write_snapshot(w, r->t, r->tid, r->text);
	case LK_TRACE_SAMPLE: return lk_trace_write_sample(w, r->t, r->rss, r->live_bytes, r->live_blocks);
	case LK_TRACE_STACK: return lk_trace_write_stack(w, r->stack, r->frames, r->n_frames);
	case LK_TRACE_MODULE: return lk_trace_write_module(w, r->module);
	case LK_TRACE_SYMBOL:
		return lk_trace_write_symbol(w, r->addr, r->module_id, r->symbol, r->n_symbol);
	default: return 0;
	}
}

static void copy(const char *in, const char *out)
{
	FILE *f = fopen(in, "rb");
	struct lk_trace_reader *r;
	struct lk_trace_writer *w;
	struct lk_trace_record rec;
	int rc;
	if (!f)
		exit(2);
	gen_check(lk_trace_reader_open(f, 0, &r), "read");
	gen_check(lk_trace_writer_open(out, lk_trace_reader_meta(r), NULL, &w), "open");
	while ((rc = lk_trace_reader_next(r, &rec)) == 1)
		gen_check(copy_record(w, &rec), "copy");
	gen_check(rc, "read");
	gen_check(lk_trace_writer_close(w), "close");
	lk_trace_reader_close(r);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "basic"))
		basic(argv[2], argc > 3 ? atoi(argv[3]) : 1, argc > 4 && atoi(argv[4]));
	else if (argc == 4 && !strcmp(argv[1], "growth"))
		growth(argv[2], atol(argv[3]));
	else if (argc == 4 && !strcmp(argv[1], "big"))
		big(argv[2], atol(argv[3]));
	else if ((argc == 4 || argc == 5) && !strcmp(argv[1], "wide"))
		wide(argv[2], atol(argv[3]), argc == 5 && atoi(argv[4]));
	else if (argc == 3 && !strcmp(argv[1], "newer"))
		newer(argv[2]);
	else if (argc == 4 && !strcmp(argv[1], "copy"))
		copy(argv[2], argv[3]);
	else {
		fprintf(stderr, "usage: gen_trace basic|growth|big|wide|newer OUT [ARGS] | copy IN OUT\n");
		return 2;
	}
	return 0;
}
