/*
 * eventlog_writer.h - writes GHC eventlogs into memory, for tests, the
 * fuzzer's seed corpus and benchmarks: a header of declarations, events
 * (fixed or variable size), block markers, the end marker. Nothing is
 * validated: tests use it to write broken files on purpose.
 */
#ifndef LK_TESTS_EVENTLOG_WRITER_H
#define LK_TESTS_EVENTLOG_WRITER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct elw {
	unsigned char *b;
	size_t n, cap;
};

struct elw_decl {
	uint16_t id;
	uint16_t size;      /* 0xFFFF: variable */
	const char *name;
};

/* The declarations of a GHC 9.6-like header (the ids leakscope reads, plus
 * 200 (fixed, 5 bytes) and 201 (variable) that nobody knows). */
static const struct elw_decl elw_ghc_decls[] = {
	{18, 14, "Block marker"}, {19, 0xFFFF, "User message"},
	{29, 0xFFFF, "RTS name and version"}, {30, 0xFFFF, "Program arguments"},
	{43, 16, "Wall clock time"}, {50, 12, "Current heap size"},
	{51, 12, "Current heap live data"}, {58, 0xFFFF, "User marker"},
	{91, 12, "Blocks size"},
	{160, 0xFFFF, "Start of heap profile"}, {161, 0xFFFF, "Cost center definition"},
	{162, 8, "Start of heap profile sample"}, {163, 0xFFFF, "Heap profile cost-centre sample"},
	{164, 0xFFFF, "Heap profile string sample"}, {165, 8, "End of heap profile sample"},
	{166, 16, "Start of heap profile (biographical) sample"},
	{169, 0xFFFF, "An IPE entry"}, {200, 5, "Unknown fixed"}, {201, 0xFFFF, "Unknown variable"},
};
#define ELW_NDECLS (sizeof(elw_ghc_decls) / sizeof(elw_ghc_decls[0]))

static void elw_raw(struct elw *w, const void *p, size_t n)
{
	if (w->n + n > w->cap) {
		size_t c = w->cap ? w->cap * 2 : 4096;
		while (c < w->n + n)
			c *= 2;
		w->b = realloc(w->b, c);
		if (!w->b)
			abort();
		w->cap = c;
	}
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void elw_u8(struct elw *w, unsigned v) { unsigned char c = (unsigned char)v; elw_raw(w, &c, 1); }
static void elw_u16(struct elw *w, unsigned v) { elw_u8(w, v >> 8); elw_u8(w, v); }
static void elw_u32(struct elw *w, uint32_t v) { elw_u16(w, v >> 16); elw_u16(w, v & 0xFFFF); }
static void elw_u64(struct elw *w, uint64_t v) { elw_u32(w, (uint32_t)(v >> 32)); elw_u32(w, (uint32_t)v); }
static void elw_strz(struct elw *w, const char *s) { elw_raw(w, s, strlen(s) + 1); }

static void elw_header(struct elw *w, const struct elw_decl *d, size_t n)
{
	elw_u32(w, 0x68647262); /* hdrb */
	elw_u32(w, 0x68657462); /* hetb */
	for (size_t i = 0; i < n; i++) {
		elw_u32(w, 0x65746200); /* etb */
		elw_u16(w, d[i].id);
		elw_u16(w, d[i].size);
		elw_u32(w, (uint32_t)strlen(d[i].name));
		elw_raw(w, d[i].name, strlen(d[i].name));
		elw_u32(w, 0);          /* no extension */
		elw_u32(w, 0x65746500); /* ete */
	}
	elw_u32(w, 0x68657465); /* hete */
	elw_u32(w, 0x68647265); /* hdre */
	elw_u32(w, 0x64617462); /* datb */
}

/* Event header; for a variable-size type pass var=1 and the payload len. */
static void elw_ev(struct elw *w, unsigned type, uint64_t t, int var, size_t len)
{
	elw_u16(w, type);
	elw_u64(w, t);
	if (var)
		elw_u16(w, (unsigned)len);
}

/* A variable-size event with a text payload (no terminator). */
static void elw_text(struct elw *w, unsigned type, uint64_t t, const char *s)
{
	elw_ev(w, type, t, 1, strlen(s));
	elw_raw(w, s, strlen(s));
}

/* Block marker; returns the offset to patch with elw_block_end(). */
static size_t elw_block(struct elw *w, uint64_t t, unsigned cap)
{
	size_t at = w->n;
	elw_ev(w, 18, t, 0, 0);
	elw_u32(w, 0);
	elw_u64(w, t);
	elw_u16(w, cap);
	return at;
}

static void elw_block_end(struct elw *w, size_t at)
{
	uint32_t size = (uint32_t)(w->n - at);
	for (int i = 0; i < 4; i++)
		w->b[at + 10 + i] = (unsigned char)(size >> (24 - 8 * i));
}

static void elw_u64ev(struct elw *w, unsigned type, uint64_t t, uint64_t v) /* 50/51/91 */
{
	elw_ev(w, type, t, 0, 0);
	elw_u32(w, 1);
	elw_u64(w, v);
}

static void elw_prof_begin(struct elw *w, uint64_t t, uint32_t breakdown, uint64_t period)
{
	elw_ev(w, 160, t, 1, 1 + 8 + 4 + 7);
	elw_u8(w, 0);
	elw_u64(w, period);
	elw_u32(w, breakdown);
	for (int i = 0; i < 7; i++)
		elw_u8(w, 0);
}

static void elw_sample_begin(struct elw *w, uint64_t t) { elw_ev(w, 162, t, 0, 0); elw_u64(w, 0); }
static void elw_sample_end(struct elw *w, uint64_t t) { elw_ev(w, 165, t, 0, 0); elw_u64(w, 0); }

static void elw_sample_string(struct elw *w, uint64_t t, const char *label, uint64_t bytes)
{
	elw_ev(w, 164, t, 1, 1 + 8 + strlen(label) + 1);
	elw_u8(w, 0);
	elw_u64(w, bytes);
	elw_strz(w, label);
}

/* IPE: u64 + 6 strings; extra = bytes declared beyond what is written
 * (GHC 9.6 declares 1 too many). */
static void elw_ipe(struct elw *w, uint64_t t, uint64_t addr, const char *const f[6], int extra)
{
	size_t len = 8;
	for (int i = 0; i < 6; i++)
		len += strlen(f[i]) + 1;
	elw_ev(w, 169, t, 1, len + (size_t)extra);
	elw_u64(w, addr);
	for (int i = 0; i < 6; i++)
		elw_strz(w, f[i]);
}

static void elw_end(struct elw *w) { elw_u16(w, 0xFFFF); }

#endif
