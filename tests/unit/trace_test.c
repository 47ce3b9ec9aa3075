/*
 * trace_test.c - the trace writer and reader: every record type round
 * trip (stored and zstd); a million random events of threads that reuse
 * addresses, exactly, each free naming its allocation; truncation at every
 * byte offset; a flipped byte anywhere caught; a newer major version
 * refused, a newer minor's chunk skipped; a file read while it is written
 * (follow mode); the size of a realistic stream in bytes per event.
 *
 *   trace_test                      the tests
 *   trace_test --write-seeds DIR    small traces, a fuzzing corpus
 *   LEAKSCOPE_TRACE_BENCH=N trace_test --bench [FILE]
 *                                   write N realistic events to FILE (or a
 *                                   temporary file) and time the reader
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "trace/format.h"
#include "trace/livemap.h"
#include "trace/reader.h"
#include "trace/writer.h"
#include "tap.h"

/* ---- expected records ------------------------------------------------- */

struct ev {
	int type;
	uint64_t t;
	uint32_t tid, stack;
	uint64_t addr, size;
	uint64_t serial;          /* ALLOC: its number; FREE: its allocation's */
	uint64_t rss, live_bytes, live_blocks;
	const char *text;
};

struct evs {
	struct ev *e;
	size_t n, cap;
};

static void push(struct evs *v, struct ev e)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->e = realloc(v->e, v->cap * sizeof(*v->e));
		if (!v->e)
			abort();
	}
	v->e[v->n++] = e;
}

static int same(const struct ev *e, const struct lk_trace_record *r)
{
	if (e->type != r->type || e->t != r->t)
		return 0;
	switch (e->type) {
	case LK_TRACE_ALLOC:
		return r->tid == e->tid && r->addr == e->addr && r->size == e->size &&
		       r->stack == e->stack && r->serial == e->serial;
	case LK_TRACE_FREE:
		return r->tid == e->tid && r->addr == e->addr && r->size == e->size &&
		       r->serial == e->serial;
	case LK_TRACE_SAMPLE:
		return r->rss == e->rss && r->live_bytes == e->live_bytes &&
		       r->live_blocks == e->live_blocks;
	default:
		return r->tid == e->tid && strcmp(r->text, e->text) == 0 &&
		       r->text_len == strlen(e->text);
	}
}

static struct ev A(uint64_t t, uint32_t tid, uint32_t stack, uint64_t addr, uint64_t size)
{
	return (struct ev){.type = LK_TRACE_ALLOC, .t = t, .tid = tid, .stack = stack,
			   .addr = addr, .size = size};
}

/* What the writer does with the events it is given: allocations are
 * numbered; a free of an address that is not live is not written; an
 * allocation at a live address is written after the old block's free. */
static struct lk_livemap model;       /* address -> number, size */
static uint64_t model_allocs;

static void model_reset(void)
{
	lk_livemap_release(&model);
	if (lk_livemap_init(&model))
		abort();
	model_allocs = 0;
}

static void expect(struct evs *v, struct ev e)
{
	if (v->n && e.t < v->e[v->n - 1].t)
		e.t = v->e[v->n - 1].t;
	push(v, e);
}

/* Write e through w, and what the reader should give back into v. */
static int put(struct lk_trace_writer *w, struct evs *v, struct ev e)
{
	int rc;
	struct lk_livemap_entry *old = e.type == LK_TRACE_ALLOC || e.type == LK_TRACE_FREE ?
				       lk_livemap_get(&model, e.addr) : NULL;
	if (e.type == LK_TRACE_ALLOC && e.addr) {
		uint64_t serial, size;
		if (old && !lk_livemap_del(&model, e.addr, &serial, &size))
			expect(v, (struct ev){LK_TRACE_FREE, e.t, e.tid, .addr = e.addr,
					      .size = size, .serial = serial});
		e.serial = model_allocs++;
		if (lk_livemap_put(&model, e.addr, e.serial, e.size))
			abort();
		expect(v, e);
	} else if (e.type == LK_TRACE_FREE) {
		if (old && !lk_livemap_del(&model, e.addr, &e.serial, &e.size))
			expect(v, e);
	} else if (e.type != LK_TRACE_ALLOC) {
		expect(v, e);
	}
	switch (e.type) {
	case LK_TRACE_ALLOC: rc = lk_trace_write_alloc(w, e.t, e.tid, e.addr, e.size, e.stack); break;
	case LK_TRACE_FREE: rc = lk_trace_write_free(w, e.t, e.tid, e.addr); break;
	case LK_TRACE_SAMPLE: rc = lk_trace_write_sample(w, e.t, e.rss, e.live_bytes, e.live_blocks); break;
	case LK_TRACE_MARK: rc = lk_trace_write_mark(w, e.t, e.tid, e.text); break;
	default: rc = lk_trace_write_snapshot(w, e.t, e.tid, e.text); break;
	}
	return rc;
}

static const struct lk_trace_meta test_meta = {
	.pid = 4242, .cmdline = "./prog\0-x\0arg two", .cmdline_len = 17,
	.start_ns = 1700000000123456789ull, .tick_ns = 1000, .clock_res_ns = 1,
};

/* Whole contents of f. */
static uint8_t *slurp(FILE *f, size_t *n)
{
	fseeko(f, 0, SEEK_END);
	*n = (size_t)ftello(f);
	rewind(f);
	uint8_t *b = malloc(*n ? *n : 1);
	if (!b || fread(b, 1, *n, f) != *n)
		abort();
	return b;
}

static FILE *open_mem(const uint8_t *b, size_t n)
{
	if (n == 0)
		return tmpfile();
	return fmemopen((void *)b, n, "rb");
}

/* Read every event record of a trace in memory and compare with v.
 * Returns the reader's final code; *n_ok: records matching in order. */
static int read_events(const uint8_t *b, size_t n, const struct evs *v, size_t *n_ok,
		       int flags, struct lk_trace_totals *tot)
{
	FILE *f = open_mem(b, n);
	struct lk_trace_reader *r;
	struct lk_trace_record rec;
	size_t k = 0, good = 1;
	int rc = lk_trace_reader_open(f, flags, &r);
	while (rc == 0 && (rc = lk_trace_reader_next(r, &rec)) == 1) {
		rc = 0;
		if (rec.type == LK_TRACE_END) {
			if (tot)
				*tot = *rec.totals;
			continue;
		}
		if (rec.type >= LK_TRACE_STACK)
			continue;
		if (good && v && k < v->n && same(&v->e[k], &rec))
			k++;
		else
			good = 0;
	}
	if (r)
		lk_trace_reader_close(r);
	fclose(f);
	*n_ok = k;
	return rc;
}

/* ---- every record type ------------------------------------------------ */

static const struct lk_trace_range ranges[2] = {
	{0x555555554000, 0x555555556000, 0, 5},
	{0x555555556000, 0x555555557000, 0x2000, 3},
};
static const uint8_t build_id[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
				     7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint64_t stack1[3] = {0x555555554a10, 0x555555554b20, 0x7ffff7a2d090};
static const uint64_t stack2[1] = {0x7ffff7a2d000};

static void write_all_types(struct lk_trace_writer *w, struct evs *v)
{
	struct lk_trace_module m = {
		.id = 1, .t = 0, .path = "/usr/bin/prog", .build_id = build_id,
		.build_id_len = sizeof(build_id), .load_bias = 0x555555554000,
		.ranges = ranges, .n_ranges = 2,
	};
	struct lk_trace_module m2 = {.id = 2, .t = 7, .path = NULL};
	struct lk_frame_text fr[2] = {
		{.function = "inner", .file = "a.c", .line = 12, .module = "prog", .offset = 0xa10, .inlined = 1},
		{.function = "outer", .file = NULL, .line = 0, .module = "prog", .offset = 0xa10},
	};
	ok(lk_trace_write_module(w, &m) == 0 && lk_trace_write_module(w, &m2) == 0, "write modules");
	ok(lk_trace_write_symbol(w, 0x555555554a10, 1, fr, 2) == 0, "write symbol");
	ok(lk_trace_write_stack(w, 1, stack1, 3) == 0 && lk_trace_write_stack(w, 2, stack2, 1) == 0,
	   "write stacks");
	ok(lk_trace_write_stack(w, 4, stack2, 1) == -EINVAL, "stack ids must be consecutive");
	ok(lk_trace_write_alloc(w, 1, 1, 1, 1, 3) == -EINVAL, "undefined stack refused");
	put(w, v, A(5, 100, 1, 0x5555555592a0, 24));
	put(w, v, A(5, 101, 2, 0x7ffff0000b70, 1u << 20));
	put(w, v, (struct ev){LK_TRACE_MARK, 9, 100, .text = "phase one"});
	put(w, v, (struct ev){LK_TRACE_SAMPLE, 1000000, .rss = 5u << 20, .live_bytes = 1048600, .live_blocks = 2});
	put(w, v, (struct ev){LK_TRACE_FREE, 1000001, 101, .addr = 0x7ffff0000b70});
	put(w, v, (struct ev){LK_TRACE_SNAPSHOT, 1000002, 102, .text = ""});
	put(w, v, A(1000002, 103, 0, 0xffffffffffffff00ull, 0));
	put(w, v, A(1000003, 104, 2, 16, (1ull << 56) - 1));
	put(w, v, A(1000003, 104, 1, 16, 32));            /* 16's free was missed */
	put(w, v, A(1000003, 104, 1, 0, 32));             /* failed: not written */
	put(w, v, (struct ev){LK_TRACE_FREE, 1000004, 100, .addr = 0x5555555592a0});
	put(w, v, (struct ev){LK_TRACE_FREE, 1000004, 105, .addr = 0x1234});   /* never allocated */
	put(w, v, (struct ev){LK_TRACE_FREE, 999, 103, .addr = 0xffffffffffffff00ull}); /* time clamped */
	ok(lk_trace_writer_flush(w) == 0, "flush");
	put(w, v, (struct ev){LK_TRACE_FREE, 1ull << 40, 104, .addr = 16});
	put(w, v, (struct ev){LK_TRACE_MARK, 1ull << 40, 0xffffffffu, .text = "after a flush"});
}

static void check_all_types(const uint8_t *b, size_t n, const struct evs *v, const char *how)
{
	FILE *f = open_mem(b, n);
	struct lk_trace_reader *r;
	struct lk_trace_record rec;
	int rc = lk_trace_reader_open(f, 0, &r);
	ok(rc == 0, "%s: open (%s)", how, lk_error_detail());
	if (rc) {
		fclose(f);
		return;
	}
	const struct lk_trace_meta *m = lk_trace_reader_meta(r);
	ok(m->version == LK_TRACE_VERSION && m->minor == LK_TRACE_MINOR && m->pid == 4242 && m->tick_ns == 1000 &&
	   m->start_ns == test_meta.start_ns && m->clock_res_ns == 1 && m->cmdline_len == 17 &&
	   memcmp(m->cmdline, test_meta.cmdline, 17) == 0, "%s: header", how);
	size_t k = 0, mods = 0, syms = 0, stks = 0, ends = 0, good = 1;
	while ((rc = lk_trace_reader_next(r, &rec)) == 1) {
		switch (rec.type) {
		case LK_TRACE_MODULE: {
			const struct lk_trace_module *x = rec.module;
			if (mods++ == 0)
				good &= x->id == 1 && strcmp(x->path, "/usr/bin/prog") == 0 &&
					x->build_id_len == 20 && memcmp(x->build_id, build_id, 20) == 0 &&
					x->load_bias == 0x555555554000 && x->n_ranges == 2 &&
					memcmp(x->ranges, ranges, sizeof(ranges)) == 0;
			else
				good &= x->id == 2 && x->t == 7 && x->path == NULL && x->n_ranges == 0 &&
					x->build_id == NULL;
			break;
		}
		case LK_TRACE_SYMBOL:
			syms++;
			good &= rec.addr == 0x555555554a10 && rec.module_id == 1 && rec.n_symbol == 2 &&
				strcmp(rec.symbol[0].function, "inner") == 0 &&
				strcmp(rec.symbol[0].file, "a.c") == 0 && rec.symbol[0].line == 12 &&
				rec.symbol[0].inlined == 1 && rec.symbol[0].offset == 0xa10 &&
				strcmp(rec.symbol[1].function, "outer") == 0 && rec.symbol[1].file == NULL &&
				strcmp(rec.symbol[1].module, "prog") == 0 && rec.symbol[1].inlined == 0;
			break;
		case LK_TRACE_STACK:
			stks++;
			if (rec.stack == 1)
				good &= rec.n_frames == 3 && memcmp(rec.frames, stack1, sizeof(stack1)) == 0;
			else
				good &= rec.stack == 2 && rec.n_frames == 1 && rec.frames[0] == stack2[0];
			break;
		case LK_TRACE_END:
			ends++;
			good &= rec.totals->events == v->n && rec.totals->allocs == 5 &&
				rec.totals->frees == 5 && rec.totals->stacks == 2 &&
				rec.totals->modules == 2 && rec.totals->symbols == 1;
			break;
		default:
			if (k < v->n && same(&v->e[k], &rec))
				k++;
			else
				good = 0;
		}
	}
	ok(rc == 0 && good && k == v->n && mods == 2 && syms == 1 && stks == 2 && ends == 1,
	   "%s: every record back (rc %d, %zu of %zu events, %s)", how, rc, k, v->n, lk_error_detail());
	ok(lk_trace_reader_next(r, &rec) == 0, "%s: 0 after the end", how);
	lk_trace_reader_close(r);
	fclose(f);
}

static uint8_t *small_trace(int stored, struct evs *v, size_t *n)
{
	FILE *f = tmpfile();
	struct lk_trace_writer *w;
	struct lk_trace_writer_options o = {.stored = stored, .level = 3};
	if (lk_trace_writer_fdopen(fileno(f), &test_meta, &o, &w))
		abort();
	model_reset();
	write_all_types(w, v);
	if (lk_trace_writer_close(w))
		abort();
	uint8_t *b = slurp(f, n);
	fclose(f);
	return b;
}

static void test_all_types(void)
{
	for (int stored = 0; stored < 2; stored++) {
		struct evs v = {0};
		size_t n;
		uint8_t *b = small_trace(stored, &v, &n);
		check_all_types(b, n, &v, stored ? "stored" : "zstd");
		free(b);
		free(v.e);
	}
}

/* ---- stacks, record by record and skimmed ------------------------------ */

#define NSTACKS 3000

/* Frames that make varints of every length, 1 to 10 bytes: addresses near
 * each other, far apart, 0 and the top of the address range. */
static uint64_t stack_frame(uint32_t id, uint32_t i)
{
	uint64_t r = (uint64_t)id * 0x9e3779b97f4a7c15ull ^ (uint64_t)i * 0xbf58476d1ce4e5b9ull;
	switch ((id + i) % 5) {
	case 0: return 0;
	case 1: return UINT64_MAX - (r & 0xff);
	case 2: return 0x555555554000ull + (r & 0xfffff);
	case 3: return r;
	default: return 0x7ffff7a00000ull + (r >> (r & 63));
	}
}

/* Stacks of 1 to 1024 frames, over several STACKS chunks, come back the
 * same from lk_trace_reader_next() and from the bulk reader's skim and
 * lazy decoding. */
static void test_stacks(void)
{
	FILE *f = tmpfile();
	struct lk_trace_writer *w;
	struct lk_trace_writer_options o = {.level = 1};
	static uint64_t frames[LK_TRACE_FRAMES_MAX], got[LK_TRACE_FRAMES_MAX];
	int rc = lk_trace_writer_fdopen(fileno(f), &test_meta, &o, &w);
	for (uint32_t id = 1; rc == 0 && id <= NSTACKS; id++) {
		uint32_t n = id % 97 == 0 ? LK_TRACE_FRAMES_MAX : 1 + id % 40;
		for (uint32_t i = 0; i < n; i++)
			frames[i] = stack_frame(id, i);
		rc = lk_trace_write_stack(w, id, frames, n);
		if (rc == 0 && id % 700 == 0)
			rc = lk_trace_writer_flush(w);   /* a chunk ends */
	}
	ok(rc == 0 && lk_trace_writer_close(w) == 0, "stacks: %u written", NSTACKS);
	size_t size;
	uint8_t *b = slurp(f, &size);
	fclose(f);
	for (int bulk = 0; bulk < 2; bulk++) {
		FILE *in = open_mem(b, size);
		struct lk_trace_reader *r;
		struct lk_trace_record rec;
		struct lk_trace_events ev;
		struct lk_trace_stacks st;
		uint32_t seen = 0, chunks = 0;
		int good = 1;
		rc = lk_trace_reader_open(in, 0, &r);
		while (rc == 0 && (rc = bulk ? lk_trace_reader_next_chunk(r, &rec, &ev, &st)
					     : lk_trace_reader_next(r, &rec)) > 0) {
			if (rc == 3) {
				struct lk_trace_stack_ref ref;
				const char *what;
				chunks++;
				while ((rc = lk_trace_stacks_next(&st, &ref, &what)) == 1) {
					good = good && ref.id == ++seen && ref.n == 1 + (ref.id % 97 == 0 ?
							LK_TRACE_FRAMES_MAX - 1 : ref.id % 40);
					lk_trace_stack_frames(&ref, got);
					for (uint32_t i = 0; good && i < ref.n; i++)
						good = got[i] == stack_frame(ref.id, i);
				}
				rc = rc < 0 ? -1 : lk_trace_reader_stacks_done(r, &st);
			} else if (rc == 1 && rec.type == LK_TRACE_STACK) {
				good = good && rec.stack == ++seen;
				for (uint32_t i = 0; good && i < rec.n_frames; i++)
					good = rec.frames[i] == stack_frame(rec.stack, i);
				rc = 0;
			} else {
				rc = rec.type == LK_TRACE_END ? 0 : rc == 1 ? 0 : rc;
				if (rec.type == LK_TRACE_END)
					break;
			}
		}
		ok(rc == 0 && good && seen == NSTACKS && (!bulk || chunks >= 4),
		   "stacks %s: every frame back (%u stacks, %u chunks, rc %d %s)",
		   bulk ? "skimmed, decoded when asked" : "record by record", seen, chunks, rc,
		   rc ? lk_error_detail() : "");
		lk_trace_reader_close(r);
		fclose(in);
	}
	free(b);
}

/* ---- random events ---------------------------------------------------- */

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void test_random(void)
{
	enum { N = 1000000, POOL = 5000, STACKS = 300 };
	static uint64_t live[2][POOL];
	static int n_live[2];
	FILE *f = tmpfile();
	struct lk_trace_writer *w;
	int rc = lk_trace_writer_fdopen(fileno(f), &test_meta, NULL, &w);
	uint64_t fr[8];
	model_reset();
	for (uint32_t s = 1; rc == 0 && s <= STACKS; s++) {
		size_t d = 1 + rnd() % 8;
		for (size_t i = 0; i < d; i++)
			fr[i] = 0x400000 + rnd() % 0x100000;
		rc = lk_trace_write_stack(w, s, fr, d);
	}
	struct evs v = {0};
	uint64_t t = 0;
	for (size_t i = 0; rc == 0 && i < N; i++) {
		uint64_t x = rnd();
		int th = (x & 7) < 6 ? (int)(i / 1000 % 2) : (int)(x >> 3 & 1);
		uint32_t tid = 1000 + (uint32_t)th + ((x >> 4) % 97 == 0 ? 7 : 0);
		unsigned jump = (unsigned)(x >> 12) % 1000;
		t += jump < 900 ? jump % 3 : jump < 990 ? jump : (x >> 20) % 5000000;
		uint64_t when = (x >> 40) % 50 == 0 && t > 10 ? t - 10 : t;   /* late: clamped */
		struct ev e = {.t = when, .tid = tid};
		unsigned what = (unsigned)(x >> 30) % 1000;
		if (what < 3) {
			e.type = what == 0 ? LK_TRACE_SAMPLE : what == 1 ? LK_TRACE_MARK : LK_TRACE_SNAPSHOT;
			e.text = what == 1 ? "mark" : "snap";
			e.tid = what == 0 ? 0 : tid;
			e.rss = x >> 8;
			e.live_bytes = x >> 16;
			e.live_blocks = x >> 24;
		} else if (n_live[th] > 0 && (n_live[th] == POOL || (x >> 50) % 2)) {
			int k = (int)((x >> 52) % (uint64_t)n_live[th]);
			if ((x >> 62) == 0)
				k = n_live[th] - 1;
			e.type = LK_TRACE_FREE;
			e.addr = live[th][k];
			live[th][k] = live[th][--n_live[th]];
		} else {
			e.type = LK_TRACE_ALLOC;
			/* addresses from a few arenas, reused by both threads */
			e.addr = (th ? 0x7f0000000000ull : 0x555555560000ull) + 16 * (rnd() % 20000);
			e.size = (x >> 5) % 4096 + ((x >> 60) == 3 ? (1ull << 40) : 0);
			e.stack = (uint32_t)((x >> 20) % (STACKS + 1));
			live[th][n_live[th]++] = e.addr;
		}
		rc = put(w, &v, e);
	}
	ok(rc == 0, "random: write 10^6 events (%s)", lk_error_detail());
	rc = lk_trace_writer_close(w);
	size_t n, k;
	uint8_t *b = slurp(f, &n);
	fclose(f);
	struct lk_trace_totals tot = {0};
	rc = read_events(b, n, &v, &k, 0, &tot);
	ok(rc == 0 && k == v.n && tot.events == v.n, "random: %zu of %zu events back exactly (rc %d, %s)",
	   k, v.n, rc, rc ? lk_error_detail() : "");
	printf("# random: %.2f bytes/event\n", (double)n / (double)v.n);
	free(b);
	free(v.e);
}

/* A numbered writer (the recorder's): frees given by allocation number,
 * read back with their address, size and number. */
static void test_numbered(void)
{
	enum { N = 20000 };
	static uint64_t addr_of[N], size_of[N];
	static int live[N];
	FILE *f = tmpfile();
	struct lk_trace_writer *w;
	struct lk_trace_writer_options o = {.numbered = 1};
	int rc = lk_trace_writer_fdopen(fileno(f), &test_meta, &o, &w), good = 1;
	struct evs v = {0};
	uint64_t made = 0;
	for (int i = 0; rc == 0 && i < 3 * N / 2; i++) {
		uint64_t x = rnd(), t = (uint64_t)i;
		if (made < N && (x % 3 || made == 0)) {
			uint64_t n = lk_trace_writer_allocs(w);
			good &= n == made;
			addr_of[n] = 0x10000 + 64 * (x >> 40 & 0xffff);   /* reused at random */
			size_of[n] = 1 + (x >> 8) % 999;
			live[n] = 1;
			rc = lk_trace_write_alloc(w, t, 7, addr_of[n], size_of[n], 0);
			push(&v, (struct ev){LK_TRACE_ALLOC, t, 7, 0, addr_of[n], size_of[n], .serial = n});
			made++;
		} else {
			uint64_t n = (x >> 20) % made;
			if (!live[n])
				continue;
			live[n] = 0;
			rc = lk_trace_write_free_number(w, t, 8, n, addr_of[n], size_of[n]);
			push(&v, (struct ev){LK_TRACE_FREE, t, 8, 0, addr_of[n], size_of[n], .serial = n});
		}
	}
	good &= lk_trace_write_free_number(w, 0, 8, made, 1, 1) == -EINVAL &&
		lk_trace_write_free(w, 0, 8, addr_of[0]) == -EINVAL;
	rc = rc ? rc : lk_trace_writer_close(w);
	size_t n, k;
	uint8_t *b = slurp(f, &n);
	fclose(f);
	int got = read_events(b, n, &v, &k, 0, NULL);
	ok(rc == 0 && good && got == 0 && k == v.n,
	   "numbered writer: %zu of %zu events back with their numbers (%s)", k, v.n,
	   got ? lk_error_detail() : "");
	free(b);
	free(v.e);
}

/* ---- truncation and corruption ------------------------------------------ */

/* A trace of a few chunks: events flushed every few records. */
static uint8_t *chunked_trace(int stored, struct evs *v, size_t *n)
{
	FILE *f = tmpfile();
	struct lk_trace_writer *w;
	struct lk_trace_writer_options o = {.stored = stored};
	if (lk_trace_writer_fdopen(fileno(f), &test_meta, &o, &w))
		abort();
	model_reset();
	uint64_t fr[3] = {0x401000, 0x401100, 0x402000};
	struct lk_frame_text ft = {.function = "main", .file = "m.c", .line = 3, .module = "m"};
	for (uint32_t i = 0; i < 12; i++) {
		if (i % 4 == 0) {
			fr[0] += i;
			lk_trace_write_stack(w, i / 4 + 1, fr, 3);
			lk_trace_write_symbol(w, fr[0], 0, &ft, 1);
		}
		put(w, v, A(10 * i, 7 + i % 2, i / 4 + 1, 0x1000 + 64 * i, 8 + i));
		if (i % 3 == 2)
			put(w, v, (struct ev){LK_TRACE_FREE, 10 * i + 1, 7, .addr = 0x1000 + 64 * (i - 2)});
		if (i == 5)
			put(w, v, (struct ev){LK_TRACE_MARK, 10 * i + 2, 7, .text = "m"});
		if (i % 5 == 4)
			lk_trace_writer_flush(w);
	}
	if (lk_trace_writer_close(w))
		abort();
	uint8_t *b = slurp(f, n);
	fclose(f);
	return b;
}

static void test_truncation(void)
{
	for (int stored = 0; stored < 2; stored++) {
		struct evs v = {0};
		size_t n;
		uint8_t *b = chunked_trace(stored, &v, &n);
		/* where each event's chunk ends, from a full read */
		uint64_t *ends = calloc(v.n, sizeof(*ends));
		FILE *f = open_mem(b, n);
		struct lk_trace_reader *r;
		struct lk_trace_record rec;
		size_t k = 0;
		int rc = lk_trace_reader_open(f, 0, &r);
		while (rc == 0 && (rc = lk_trace_reader_next(r, &rec)) == 1) {
			rc = 0;
			if (rec.type < LK_TRACE_STACK && k < v.n)
				ends[k++] = lk_trace_reader_good_offset(r);
		}
		ok(rc == 0 && k == v.n, "truncation: full read (%zu events)", k);
		lk_trace_reader_close(r);
		fclose(f);

		int bad = 0;
		for (size_t len = 0; len < n && !bad; len++) {
			size_t want = 0, got;
			while (want < v.n && ends[want] <= len)
				want++;
			rc = read_events(b, len, &v, &got, 0, NULL);
			char expect[64];
			snprintf(expect, sizeof(expect), "truncated at offset %zu ", len);
			if (got != want || (len > 0 && rc != LK_ETRUNC) || (len == 0 && rc != LK_EFORMAT) ||
			    (len > 0 && strncmp(lk_error_detail(), expect, strlen(expect)) != 0)) {
				bad = 1;
				printf("# prefix %zu: rc %d, %zu events (want %zu): %s\n", len, rc, got, want,
				       lk_error_detail());
			}
		}
		ok(!bad, "%s: each of %zu prefixes gives the events of its complete chunks and LK_ETRUNC",
		   stored ? "stored" : "zstd", n);
		read_events(b, n - 1, &v, &k, 0, NULL);
		ok(strstr(lk_error_detail(), "last complete chunk ends at 0.000 s") != NULL,
		   "truncation detail: %s", lk_error_detail());
		free(ends);
		free(b);
		free(v.e);
	}
}

static void test_corruption(void)
{
	struct evs v = {0};
	size_t n, k;
	uint8_t *b = chunked_trace(0, &v, &n);
	int missed = 0, crc = 0;
	for (size_t i = 0; i < n; i++) {
		for (int bit = 0; bit < 8; bit += 3) {
			b[i] ^= (uint8_t)(1u << bit);
			int rc = read_events(b, n, &v, &k, 0, NULL);
			if (rc == 0 && missed++ < 5)
				printf("# flip of bit %d at %zu not detected\n", bit, i);
			crc += strstr(lk_error_detail(), "checksum") != NULL;
			read_events(b, n, &v, &k, LK_TRACE_NOVERIFY, NULL);   /* must not crash */
			b[i] ^= (uint8_t)(1u << bit);
		}
	}
	ok(missed == 0, "corruption: each of %zu flipped bits is caught (%d by a checksum)", 3 * n, crc);
	/* a byte of a chunk payload: the payload CRC says so */
	size_t h = LK_TRACE_HEADER_MIN + test_meta.cmdline_len;
	b[h + LK_CHUNK_HEADER_SIZE + 2] ^= 0x40;
	int rc = read_events(b, n, &v, &k, 0, NULL);
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "chunk checksum mismatch") &&
	   strstr(lk_error_detail(), "at offset"), "corruption: %s", lk_error_detail());
	free(b);
	free(v.e);
}

/* ---- versions ------------------------------------------------------------ */

static void fix_header_crc(uint8_t *b)
{
	uint32_t H = lk_get_le32(b + 16);
	lk_put_le32(b + H - 4, lk_trace_crc32(0, b, H - 4));
}

static void test_versions(void)
{
	struct evs v = {0};
	size_t n, k;
	uint8_t *b = chunked_trace(0, &v, &n);
	lk_put_le32(b + 8, LK_TRACE_VERSION + 1);
	fix_header_crc(b);
	int rc = read_events(b, n, &v, &k, 0, NULL);
	char newer[64];
	snprintf(newer, sizeof(newer), "version %d.%d is newer", LK_TRACE_VERSION + 1,
		 LK_TRACE_MINOR);
	ok(rc == LK_EVERSION && strstr(lk_error_detail(), newer),
	   "version %d refused: %s", LK_TRACE_VERSION + 1, lk_error_detail());
	lk_put_le32(b + 8, LK_TRACE_VERSION);
	fix_header_crc(b);

	/* A newer minor may add chunk types: insert one after the first chunk
	 * (renumbering those after it, and the END's count). */
	size_t h = lk_get_le32(b + 16);
	size_t first_end = h + LK_CHUNK_HEADER_SIZE + lk_get_le32(b + h + 8);
	uint8_t *c = malloc(n + 2 * LK_CHUNK_HEADER_SIZE + 16);
	memcpy(c, b, first_end);
	struct lk_chunk_header x = {.type = 77, .codec = LK_CODEC_STORED, .stored_size = 5,
				    .raw_size = 5, .count = 3, .seq = 1};
	x.t_first = x.t_last = lk_get_le64(b + h + 32);
	x.crc = lk_trace_crc32(0, "hello", 5);
	lk_trace_chunk_header_put(c + first_end, &x);
	memcpy(c + first_end + LK_CHUNK_HEADER_SIZE, "hello", 5);
	size_t m = first_end + LK_CHUNK_HEADER_SIZE + 5;
	for (size_t p = first_end; p < n;) {
		struct lk_chunk_header ch;
		lk_trace_chunk_header_get(b + p, &ch, 1);
		uint8_t *pl = c + m + LK_CHUNK_HEADER_SIZE;
		memcpy(pl, b + p + LK_CHUNK_HEADER_SIZE, ch.stored_size);
		ch.seq++;
		if (ch.type == LK_CHUNK_END) {   /* stored: rewrite the chunks total */
			uint64_t t[9];
			const uint8_t *q = pl;
			for (int i = 0; i < 9; i++)
				lk_get_varint(&q, pl + ch.stored_size, &t[i]);
			t[7]++;
			uint8_t *e = pl;
			for (int i = 0; i < 9; i++)
				e = lk_put_varint(e, t[i]);
			ch.stored_size = ch.raw_size = (uint32_t)(e - pl);
			ch.crc = lk_trace_crc32(0, pl, ch.stored_size);
		}
		lk_trace_chunk_header_put(c + m, &ch);
		p += LK_CHUNK_HEADER_SIZE + lk_get_le32(b + p + 8);
		m += LK_CHUNK_HEADER_SIZE + ch.stored_size;
	}
	rc = read_events(c, m, &v, &k, 0, NULL);
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "unknown chunk type 77"),
	   "minor %d: an unknown chunk type is damage: %s", LK_TRACE_MINOR, lk_error_detail());
	lk_put_le32(c + 12, LK_TRACE_MINOR + 1);
	fix_header_crc(c);
	rc = read_events(c, m, &v, &k, 0, NULL);
	ok(rc == 0 && k == v.n, "minor %d: the unknown chunk is skipped (rc %d, %s)",
	   LK_TRACE_MINOR + 1, rc, rc ? lk_error_detail() : "");
	free(c);
	free(b);
	free(v.e);

	b = (uint8_t *)"GARBAGE!";
	rc = read_events(b, 8, NULL, &k, 0, NULL);
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "not a leakscope trace"),
	   "not a trace: %s", lk_error_detail());
}

/* ---- follow mode --------------------------------------------------------- */

static void test_follow(void)
{
	char path[] = "/tmp/leakscope-trace-test.XXXXXX";
	int fd = mkstemp(path);
	struct lk_trace_writer *w;
	int rc = lk_trace_writer_fdopen(fd, &test_meta, NULL, &w);
	FILE *f = fopen(path, "rb");
	struct lk_trace_reader *r = NULL;
	struct lk_trace_record rec;
	if (rc == 0)
		rc = lk_trace_reader_open(f, 0, &r);
	ok(rc == 0, "follow: open while written");
	int seen = 0, steps_ok = 1;
	for (int round = 0; r && round < 3; round++) {
		uint64_t base = 0x1000 + 0x10000 * (uint64_t)round;
		for (int i = 0; i < 100; i++)
			lk_trace_write_alloc(w, (uint64_t)round * 1000 + (uint64_t)i, 1, base + 16 * (uint64_t)i, 16, 0);
		lk_trace_write_free(w, (uint64_t)round * 1000 + 100, 1, base);
		/* half a chunk on disk: the reader waits at its start */
		uint64_t before = lk_trace_writer_offset(w);
		lk_trace_writer_flush(w);
		uint64_t after = lk_trace_writer_offset(w);
		char *tmp = malloc(after - before);
		if (pread(fd, tmp, after - before, (off_t)before) != (ssize_t)(after - before))
			steps_ok = 0;
		if (ftruncate(fd, (off_t)(before + (after - before) / 2)))
			steps_ok = 0;
		while ((rc = lk_trace_reader_next(r, &rec)) == 1)
			seen++;
		steps_ok &= rc == LK_ETRUNC && seen == round * 101;
		if (pwrite(fd, tmp, after - before, (off_t)before) != (ssize_t)(after - before))
			steps_ok = 0;
		free(tmp);
		while ((rc = lk_trace_reader_next(r, &rec)) == 1)
			seen++;
		steps_ok &= rc == LK_ETRUNC && seen == (round + 1) * 101 &&
			    strstr(lk_error_detail(), "truncated at offset") != NULL;
	}
	lk_trace_writer_close(w);
	int end = 0;
	while (r && (rc = lk_trace_reader_next(r, &rec)) == 1)
		end |= rec.type == LK_TRACE_END;
	ok(steps_ok && rc == 0 && end && seen == 303, "follow: events as they are flushed, then the end");
	lk_trace_reader_close(r);
	fclose(f);
	close(fd);
	unlink(path);
}

/* ---- a realistic stream --------------------------------------------------- */

/*
 * Allocation sites (stacks) with a size habit and a lifetime habit, picked
 * with a skewed popularity, on 2 threads that take turns in bursts; the
 * addresses are those this process's malloc returns, blocks really freed,
 * so the heap reuses them as a program's would. Times: one event every
 * 0.4 us on average; a sample of rss and live bytes every 10 ms.
 */
#define SITES 300
#define FIFO 256
#define POOL 4096
#define TEMP 8

struct site {
	uint32_t size, spread;   /* size + rnd() % spread */
	int life;                /* 0 temporary, 1 queue, 2 long-lived */
	uint32_t stack;
};

struct gthread {
	uint32_t tid;
	void *temp[TEMP];
	uint64_t temp_size[TEMP];
	int n_temp;
	void *fifo[FIFO];
	uint64_t fifo_size[FIFO];
	unsigned fifo_n, fifo_head;
	void *pool[POOL];
	uint64_t pool_size[POOL];
};

struct gen {
	struct site site[SITES];
	struct gthread th[2];
	int cur;
	uint64_t ns, next_sample;
	uint64_t live_bytes, live_blocks;
	uint64_t events;
	struct lk_trace_writer *w;
	int workload;            /* bench/workload.c instead */
	unsigned x;
	long i[2];
};

static void gen_free(struct gen *g, struct gthread *t, void *p, uint64_t size)
{
	if (!p)
		return;
	lk_trace_write_free(g->w, g->ns / 1000, t->tid, (uint64_t)(uintptr_t)p);
	free(p);
	g->live_bytes -= size;
	g->live_blocks--;
	g->events++;
}

static void *gen_alloc(struct gen *g, struct gthread *t, uint64_t size, uint32_t stack)
{
	void *p = malloc(size);
	if (!p)
		abort();
	lk_trace_write_alloc(g->w, g->ns / 1000, t->tid, (uint64_t)(uintptr_t)p, size, stack);
	g->live_bytes += size;
	g->live_blocks++;
	g->events++;
	return p;
}

static void gen_init(struct gen *g, struct lk_trace_writer *w, int workload)
{
	memset(g, 0, sizeof(*g));
	g->w = w;
	g->workload = workload;
	g->th[0].tid = 31337;
	g->th[1].tid = 31338;
	g->x = 17;
	uint64_t fr[32];
	int n_sites = workload ? 24 : SITES;
	for (int s = 0; s < n_sites; s++) {
		struct site *si = &g->site[s];
		uint64_t x = rnd();
		static const uint32_t sizes[] = {16, 24, 32, 48, 64, 96, 128, 256, 512, 4096, 40, 72};
		si->size = sizes[x % 12];
		si->spread = (x >> 8) % 4 == 0 ? 1 + (uint32_t)((x >> 12) % 2000) : 1;
		si->life = (x >> 24) % 10 < 6 ? 0 : (x >> 24) % 10 < 9 ? 1 : 2;
		si->stack = (uint32_t)s + 1;
		/* frames in a program, libc and a library; deeper for some */
		size_t d = workload ? 4 + (size_t)s : 4 + (x >> 32) % 24;
		for (size_t k = 0; k < d; k++) {
			uint64_t y = rnd();
			fr[k] = (k == 0 ? 0x7f1234500000ull : k % 3 ? 0x555555554000ull : 0x7f1234600000ull) +
				y % 0x40000;
		}
		lk_trace_write_stack(w, si->stack, fr, d);
	}
}

/* One step of the workload of bench/workload.c: a free and an allocation
 * at one of 24 depths, 256 live blocks a thread. */
static void gen_workload_step(struct gen *g, struct gthread *t)
{
	long *i = &g->i[g->cur];
	unsigned slot = (unsigned)(*i % FIFO);
	gen_free(g, t, t->fifo[slot], t->fifo_size[slot]);
	g->x = g->x * 1103515245u + 12345u;
	uint64_t n = 8 + (g->x >> 16) % 1024;
	t->fifo[slot] = gen_alloc(g, t, n, (uint32_t)(*i % 24) + 1);
	t->fifo_size[slot] = n;
	(*i)++;
}

static void gen_step(struct gen *g)
{
	uint64_t x = rnd();
	if ((x & 63) == 0)
		g->cur ^= 1;      /* bursts of ~64 steps */
	struct gthread *t = &g->th[g->cur];
	g->ns += 100 + (x >> 8) % 600;
	if (g->ns >= g->next_sample) {
		lk_trace_write_sample(g->w, g->ns / 1000, 50000000 + g->live_bytes, g->live_bytes,
				      g->live_blocks);
		g->next_sample = g->ns + 10000000;
		g->events++;
	}
	if (g->workload) {
		gen_workload_step(g, t);
		return;
	}
	if (t->n_temp > 0 && ((x >> 16) & 3) != 0) {
		t->n_temp--;
		gen_free(g, t, t->temp[t->n_temp], t->temp_size[t->n_temp]);
		return;
	}
	/* popularity: site k with weight ~ 1/(k+1) */
	double u = (double)((x >> 20) & 0xffffff) / 16777216.0;
	int s = (int)(exp(u * log((double)SITES + 1)) - 1);
	if (s >= SITES)
		s = SITES - 1;
	struct site *si = &g->site[s];
	uint64_t size = si->size + (x >> 44) % si->spread;
	if (si->life == 0) {
		if (t->n_temp == TEMP) {
			t->n_temp--;
			gen_free(g, t, t->temp[t->n_temp], t->temp_size[t->n_temp]);
		}
		t->temp_size[t->n_temp] = size;
		t->temp[t->n_temp++] = gen_alloc(g, t, size, si->stack);
	} else if (si->life == 1) {
		unsigned k = t->fifo_head;
		if (t->fifo_n == FIFO)
			gen_free(g, t, t->fifo[k], t->fifo_size[k]);
		else
			t->fifo_n++;
		t->fifo_size[k] = size;
		t->fifo[k] = gen_alloc(g, t, size, si->stack);
		t->fifo_head = (k + 1) % FIFO;
	} else {
		unsigned k = (unsigned)(rnd() % POOL);
		gen_free(g, t, t->pool[k], t->pool_size[k]);
		t->pool_size[k] = size;
		t->pool[k] = gen_alloc(g, t, size, si->stack);
	}
}

static void gen_finish(struct gen *g)
{
	for (int k = 0; k < 2; k++) {
		struct gthread *t = &g->th[k];
		g->cur = k;
		while (t->n_temp > 0) {
			t->n_temp--;
			gen_free(g, t, t->temp[t->n_temp], t->temp_size[t->n_temp]);
		}
		for (int i = 0; i < FIFO; i++)
			gen_free(g, t, t->fifo[i], t->fifo_size[i]);
		for (int i = 0; i < POOL; i++)
			gen_free(g, t, t->pool[i], t->pool_size[i]);
	}
}

/* Write n events of the generator to fd; returns the events written. */
static uint64_t write_stream(int fd, uint64_t n, int workload, int level)
{
	struct lk_trace_writer *w;
	struct lk_trace_writer_options o = {.level = level};
	if (lk_trace_writer_fdopen(fd, &test_meta, &o, &w))
		abort();
	static struct gen g;
	gen_init(&g, w, workload);
	while (g.events < n)
		gen_step(&g);
	gen_finish(&g);
	uint64_t events = g.events;
	if (lk_trace_writer_close(w))
		abort();
	return events;
}

static void test_size(void)
{
	const char *what[2] = {"sites of a program", "bench/workload.c"};
	for (int workload = 0; workload < 2; workload++) {
		for (int level = 1; level <= 3; level += 2) {
			FILE *f = tmpfile();
			uint64_t n = write_stream(fileno(f), 2000000, workload, level);
			fseeko(f, 0, SEEK_END);
			double bpe = (double)ftello(f) / (double)n;
			size_t k;
			size_t sz;
			uint8_t *b = slurp(f, &sz);
			int rc = read_events(b, sz, NULL, &k, 0, NULL);
			ok(rc == 0 && bpe < 4, "size, %s, zstd level %d: %.2f bytes/event over %llu events",
			   what[workload], level, bpe, (unsigned long long)n);
			free(b);
			fclose(f);
		}
	}
}

/* ---- the CRC ------------------------------------------------------------------ */

static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
	}
	return ~crc;
}

/* Every length to 1,100 at every alignment to 16, whole and in two
 * pieces, against the CRC computed bit by bit; the check value. */
static void test_crc(void)
{
	uint8_t buf[1200];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rnd();
	int good = lk_trace_crc32(0, "123456789", 9) == 0xCBF43926u;
	for (size_t off = 0; off < 16; off++)
		for (size_t n = 0; n + off <= 1100; n++) {
			uint32_t want = crc_bitwise(0, buf + off, n);
			good &= lk_trace_crc32(0, buf + off, n) == want;
			good &= lk_trace_crc32(lk_trace_crc32(0, buf + off, n / 3), buf + off + n / 3,
					       n - n / 3) == want;
		}
	ok(good, "crc32: the check value, every length and alignment, in pieces");
}

/* The live map takes every 64-bit key, UINT64_MAX too (its key + 1 is the
 * empty slot's mark; a damaged 1.0 trace's address once made the count go
 * below zero and the table double until memory ran out), beside keys
 * that hash to the same slots. */
static void test_livemap_top(void)
{
	struct lk_livemap m;
	uint64_t a, b;
	int good = lk_livemap_init(&m) == 0;
	good = good && !lk_livemap_get(&m, UINT64_MAX) && lk_livemap_del(&m, UINT64_MAX, &a, &b) == -1;
	for (uint64_t k = 0; good && k < 3000; k++)
		good = lk_livemap_put(&m, k, k, 2 * k) == 0;
	good = good && lk_livemap_put(&m, UINT64_MAX, 7, 8) == 0 && m.count == 3000;
	struct lk_livemap_entry *e = lk_livemap_get(&m, UINT64_MAX);
	good = good && e && e->a == 7 && e->b == 8 && lk_livemap_put(&m, UINT64_MAX, 9, 10) == 0;
	good = good && lk_livemap_del(&m, UINT64_MAX, &a, &b) == 0 && a == 9 && b == 10;
	good = good && !lk_livemap_get(&m, UINT64_MAX) && lk_livemap_del(&m, UINT64_MAX, &a, &b) == -1;
	for (uint64_t k = 0; good && k < 3000; k++)
		good = lk_livemap_del(&m, k, &a, &b) == 0 && a == k && b == 2 * k;
	good = good && m.count == 0 && m.cap == 8192;
	lk_livemap_release(&m);
	ok(good, "live map: the key UINT64_MAX is kept apart; the count stays right");
}

/* ---- benchmark, seeds ------------------------------------------------------ */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench(const char *path)
{
	const char *e = getenv("LEAKSCOPE_TRACE_BENCH");
	uint64_t n = e ? strtoull(e, NULL, 0) : 100000000ull;
	char tmp[] = "/tmp/leakscope-trace-bench.XXXXXX";
	int fd = path ? open(path, O_RDWR | O_CREAT | O_TRUNC, 0644) : mkstemp(tmp);
	if (fd < 0) {
		perror("trace bench");
		return 1;
	}
	double t0 = now();
	uint64_t events = write_stream(fd, n, 0, 1);
	double t1 = now();
	off_t size = lseek(fd, 0, SEEK_END);
	FILE *f = fopen(path ? path : tmp, "rb");
	struct lk_trace_reader *r;
	struct lk_trace_record rec;
	uint64_t got = 0, bytes = 0;
	double t2 = now();
	int rc = lk_trace_reader_open(f, 0, &r);
	while (rc == 0 && (rc = lk_trace_reader_next(r, &rec)) == 1) {
		rc = 0;
		got += rec.type <= LK_TRACE_SAMPLE;
		bytes += rec.size;
	}
	double t3 = now();
	lk_trace_reader_close(r);
	fclose(f);
	close(fd);
	if (!path)
		unlink(tmp);
	printf("events       %llu (%llu read back, %llu bytes allocated)\n",
	       (unsigned long long)events, (unsigned long long)got, (unsigned long long)bytes);
	printf("file         %.1f MB, %.2f bytes/event\n", (double)size / 1048576, (double)size / (double)events);
	printf("write        %.2f s, %.1f M events/s (generator and malloc included)\n",
	       t1 - t0, (double)events / (t1 - t0) / 1e6);
	printf("read         %.2f s, %.1f M events/s\n", t3 - t2, (double)got / (t3 - t2) / 1e6);
	return rc == 0 && got == events ? 0 : 1;
}

/* ---- verdicts ----------------------------------------------------------- */

/* A trace of n allocations (stack 1 or 2), the even ones freed, then the
 * verdicts of the odd ones (class by number, indirect ones held by stack
 * 2) and, with `late`, an allocation after them. */
static uint8_t *judged_trace(uint64_t n, int late, size_t *size)
{
	FILE *f = tmpfile();
	struct lk_trace_writer *w;
	struct lk_trace_writer_options o = {.numbered = 1};
	uint64_t fr[2] = {0x401000, 0x402000};
	struct lk_trace_block_verdict *v = calloc(n / 2 + 1, sizeof(*v));
	size_t k = 0;
	if (!v || lk_trace_writer_fdopen(fileno(f), &test_meta, &o, &w) ||
	    lk_trace_write_stack(w, 1, fr, 1) || lk_trace_write_stack(w, 2, fr + 1, 1))
		abort();
	for (uint64_t i = 0; i < n; i++) {
		if (lk_trace_write_alloc(w, i, 7, 0x10000 + 32 * i, 8 + i % 100, 1 + (uint32_t)(i % 2)))
			abort();
		if (i % 2 == 0 && lk_trace_write_free_number(w, i, 7, i, 0x10000 + 32 * i, 8 + i % 100))
			abort();
		else if (i % 2)
			v[k++] = (struct lk_trace_block_verdict){
				.number = i, .cls = (uint8_t)(i / 2 % LK_TRACE_CLASS_COUNT),
				.leader = i / 2 % LK_TRACE_CLASS_COUNT == LK_TRACE_INDIRECT ? 2 : 0};
	}
	struct lk_trace_scan scan = {.state = LK_TRACE_SCANNED, .heap_note = "a heap note"};
	if (lk_trace_write_classes(w, &scan, v, k) ||
	    (late && lk_trace_write_alloc(w, n, 7, 0x8, 8, 1)) || lk_trace_writer_close(w))
		abort();
	free(v);
	uint8_t *b = slurp(f, size);
	fclose(f);
	return b;
}

static void test_verdicts(void)
{
	enum { N = 1200000 };   /* 600,000 verdicts: more than one chunk */
	size_t n;
	uint8_t *b = judged_trace(N, 0, &n);
	FILE *f = open_mem(b, n);
	struct lk_trace_reader *r;
	struct lk_trace_record rec;
	int rc = lk_trace_reader_open(f, 0, &r), good = 1;
	size_t scans = 0, verdicts = 0;
	uint64_t want = 1;
	while (rc == 0 && (rc = lk_trace_reader_next(r, &rec)) == 1) {
		rc = 0;
		if (rec.type == LK_TRACE_SCAN) {
			scans++;
			good &= rec.scan->state == LK_TRACE_SCANNED && !rec.scan->note &&
				!strcmp(rec.scan->heap_note, "a heap note");
		} else if (rec.type == LK_TRACE_CLASS) {
			int cls = (int)(want / 2 % LK_TRACE_CLASS_COUNT);
			good &= rec.serial == want && rec.cls == cls &&
				rec.stack == (cls == LK_TRACE_INDIRECT ? 2u : 0u) &&
				rec.addr == 0x10000 + 32 * want && rec.size == 8 + want % 100;
			want += 2;
			verdicts++;
		}
	}
	ok(rc == 0 && good && scans >= 2 && verdicts == N / 2,
	   "verdicts: %zu back in %zu chunks, with their blocks (%s)", verdicts, scans,
	   rc ? lk_error_detail() : "");
	lk_trace_reader_close(r);
	fclose(f);
	free(b);

	b = judged_trace(10, 1, &n);
	f = open_mem(b, n);
	rc = lk_trace_reader_open(f, 0, &r);
	while (rc == 0 && (rc = lk_trace_reader_next(r, &rec)) == 1)
		rc = 0;
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "events after the verdicts"),
	   "verdicts: events after them are damage: %s", lk_error_detail());
	lk_trace_reader_close(r);
	fclose(f);
	free(b);

	struct lk_trace_writer *w;
	f = tmpfile();
	uint64_t fr = 0x401000;
	struct lk_trace_scan scan = {.state = LK_TRACE_NOT_SCANNED, .note = "killed"};
	struct lk_trace_block_verdict bad[][2] = {
		{{.number = 1}, {.number = 0}},                        /* out of order */
		{{.number = 0}, {.number = 2}},                        /* not allocated */
		{{.number = 0, .cls = LK_TRACE_DEFINITE, .leader = 1}},  /* a leader, not indirect */
		{{.number = 0, .cls = LK_TRACE_INDIRECT, .leader = 2}},  /* undefined stack */
		{{.number = 0, .cls = LK_TRACE_CLASS_COUNT}},
	};
	good = lk_trace_writer_fdopen(fileno(f), &test_meta, &(struct lk_trace_writer_options){0},
				      &w) == 0 && lk_trace_write_stack(w, 1, &fr, 1) == 0 &&
	       lk_trace_write_alloc(w, 0, 7, 0x1000, 8, 1) == 0 &&
	       lk_trace_write_alloc(w, 0, 7, 0x2000, 8, 1) == 0;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		good &= lk_trace_write_classes(w, &scan, bad[i], i < 2 ? 2 : 1) == -EINVAL;
	good &= lk_trace_write_classes(w, &scan, NULL, 0) == 0 && lk_trace_writer_close(w) == 0;
	b = slurp(f, &n);
	fclose(f);
	f = open_mem(b, n);
	rc = lk_trace_reader_open(f, 0, &r);
	int said = 0;
	while (rc == 0 && (rc = lk_trace_reader_next(r, &rec)) == 1) {
		said |= rec.type == LK_TRACE_SCAN && rec.scan->state == LK_TRACE_NOT_SCANNED &&
			!strcmp(rec.scan->note, "killed");
		rc = 0;
	}
	ok(good && rc == 0 && said, "verdicts: the writer refuses bad ones; no scan, and why (%s)",
	   rc ? lk_error_detail() : "");
	lk_trace_reader_close(r);
	fclose(f);
	free(b);
}

static int write_seeds(const char *dir)
{
	for (int i = 0; i < 5; i++) {
		struct evs v = {0};
		size_t n;
		uint8_t *b = i < 2 ? small_trace(i, &v, &n) : i < 4 ? chunked_trace(i - 2, &v, &n)
			   : judged_trace(40, 0, &n);
		char path[4096];
		snprintf(path, sizeof(path), "%s/seed%d.trace", dir, i);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(b, 1, n, f) != n || fclose(f)) {
			perror(path);
			return 1;
		}
		free(b);
		free(v.e);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0)
		return write_seeds(argv[2]);
	if (argc >= 2 && strcmp(argv[1], "--bench") == 0)
		return bench(argc > 2 ? argv[2] : NULL);
	test_crc();
	test_livemap_top();
	test_all_types();
	test_stacks();
	test_random();
	test_numbered();
	test_truncation();
	test_corruption();
	test_versions();
	test_follow();
	test_verdicts();
	test_size();
	return tap_done();
}
