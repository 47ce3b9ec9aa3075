/*
 * trace_gen.h - helpers that write small synthetic traces with the real
 * writer (src/trace/writer.h), for the unit tests of the trace analysis
 * and for tests/support/gen_trace.c (the CLI tests' traces). A trace of
 * program "genprog": module 1 maps 0x400000-0x500000; stack k (1-based)
 * is [0x401000 + 0x100 k, 0x402000 (main), 0x403000 (no symbol)]; the
 * caller gives each stack a function name (and optionally an inlined one).
 */
#ifndef LK_TESTS_TRACE_GEN_H
#define LK_TESTS_TRACE_GEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/writer.h"

#define GEN_MAIN_PC 0x402000ull
#define GEN_START_PC 0x403000ull

static inline uint64_t gen_pc(uint32_t k)
{
	return 0x401000ull + 0x100ull * k;
}

static inline void gen_check(int rc, const char *what)
{
	if (rc) {
		fprintf(stderr, "trace_gen: %s failed (%d)\n", what, rc);
		exit(2);
	}
}

/* Open path for writing with the module and main's symbol. */
static inline struct lk_trace_writer *gen_open(const char *path, int stored)
{
	static const char cmd[] = "genprog\0--serve";
	struct lk_trace_meta meta = {.pid = 4242, .cmdline = cmd, .cmdline_len = sizeof(cmd) - 1,
				     .start_ns = 1700000000000000000ull, .tick_ns = 1000,
				     .clock_res_ns = 1};
	struct lk_trace_writer_options o = {.stored = stored, .level = 1};
	struct lk_trace_writer *w;
	gen_check(lk_trace_writer_open(path, &meta, &o, &w), "open");
	struct lk_trace_range r = {.start = 0x400000, .end = 0x500000, .prot = 5};
	struct lk_trace_module m = {.id = 1, .path = "/usr/bin/genprog", .ranges = &r, .n_ranges = 1};
	gen_check(lk_trace_write_module(w, &m), "module");
	struct lk_frame_text mf = {.function = "main", .file = "/src/genprog.c", .line = 90,
				   .module = "genprog", .offset = GEN_MAIN_PC - 0x400000};
	gen_check(lk_trace_write_symbol(w, GEN_MAIN_PC, 1, &mf, 1), "symbol main");
	return w;
}

/* Define stack id (the next one) for site pc gen_pc(k), named fn at line
 * k, with `inl` inlined into it when not NULL. */
static inline void gen_stack(struct lk_trace_writer *w, uint32_t id, uint32_t k,
			     const char *fn, const char *inl)
{
	uint64_t frames[3] = {gen_pc(k), GEN_MAIN_PC, GEN_START_PC};
	struct lk_frame_text f[2] = {
		{.function = (char *)(inl ? inl : fn), .file = "/src/genprog.c", .line = (int)k * 10,
		 .module = "genprog", .offset = gen_pc(k) - 0x400000, .inlined = inl != NULL},
		{.function = (char *)fn, .file = "/src/genprog.c", .line = (int)k * 10 + 1,
		 .module = "genprog", .offset = gen_pc(k) - 0x400000},
	};
	gen_check(lk_trace_write_symbol(w, gen_pc(k), 1, inl ? f : f + 1, inl ? 2 : 1), "symbol");
	gen_check(lk_trace_write_stack(w, id, frames, 3), "stack");
}

#endif
