/*
 * eventlog_test.c - the eventlog reader and profile builder on files
 * written by eventlog_writer.h: a good file, every kind of damage the
 * format notes describe (truncation anywhere, undeclared ids, sizes past
 * the end, GHC 9.6's over-declared IPE, no end marker), unknown declared
 * events, several capabilities out of time order, -hi, -hc and -hb, a run
 * of more censuses than the points a band keeps, the --diff of two -hi
 * profiles of two builds of an edited source, and a file read through
 * mapped windows (events across their edges; the file cut while mapped).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/timeline_diff.h"
#include "common/error.h"
#include "eventlog/census.h"
#include "eventlog/profile.h"
#include "eventlog/reader.h"
#include "report/timeline/timeline_report.h"
#include "eventlog_writer.h"
#include "tap.h"

#define S 1000000000ull /* ns per second */

static FILE *open_mem(const unsigned char *b, size_t n)
{
	if (n == 0)
		return tmpfile();
	return fmemopen((void *)b, n, "rb");
}

static int profile(const unsigned char *b, size_t n, struct lk_timeline *tl,
		   struct lk_profile_stats *st, int messages)
{
	struct lk_profile_options opt = {.messages = messages};
	FILE *f = open_mem(b, n);
	int rc = lk_profile_read(f, &opt, tl, st);
	fclose(f);
	return rc;
}

static const struct lk_band *band(const struct lk_timeline *tl, const char *id)
{
	for (size_t i = 0; i < tl->n_bands; i++)
		if (strcmp(tl->bands[i].id, id) == 0)
			return &tl->bands[i];
	return NULL;
}

static const char *meta(const struct lk_timeline *tl, const char *key)
{
	for (size_t i = 0; i < tl->n_meta; i++)
		if (strcmp(tl->meta[i].key, key) == 0)
			return tl->meta[i].value;
	return NULL;
}

/* A small -hT run on one capability: 3 censuses, a growing THUNK. */
static void write_good(struct elw *w, int end)
{
	elw_header(w, elw_ghc_decls, ELW_NDECLS);
	size_t g = elw_block(w, 0, 0xFFFF);
	elw_ev(w, 29, 0, 1, 4 + 15); elw_u32(w, 1); elw_raw(w, "GHC-9.6.6 rts_l", 15);
	elw_ev(w, 30, 0, 1, 4 + 12); elw_u32(w, 1); elw_raw(w, "./prog\0-x\0ab\0", 12);
	elw_ev(w, 43, 2 * S, 0, 0); elw_u32(w, 1); elw_u64(w, 1700000002); elw_u32(w, 0);
	elw_prof_begin(w, 0, 7, S / 10);
	elw_text(w, 58, S / 2, "phase one");
	elw_text(w, 19, S / 2 + 1, "a message");
	elw_ev(w, 200, S / 2, 0, 0); elw_raw(w, "\1\2\3\4\5", 5);        /* unknown fixed */
	elw_ev(w, 201, S / 2, 1, 3); elw_raw(w, "xyz", 3);                /* unknown variable */
	for (int i = 1; i <= 3; i++) {
		elw_u64ev(w, 50, (uint64_t)i * S, 1000000u * (unsigned)i);
		elw_u64ev(w, 51, (uint64_t)i * S, 500000u * (unsigned)i);
		elw_sample_begin(w, (uint64_t)i * S);
		elw_sample_string(w, (uint64_t)i * S, "THUNK_2_0", 1000u * (unsigned)i);
		if (i == 2)
			elw_sample_string(w, (uint64_t)i * S, "ghc-prim:GHC.Types.:", 64);
		elw_sample_string(w, (uint64_t)i * S, "ARR_WORDS", 50);
		elw_sample_end(w, (uint64_t)i * S);
	}
	elw_block_end(w, g);
	if (end)
		elw_end(w);
}

static void test_good(void)
{
	struct elw w = {0};
	write_good(&w, 1);
	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = profile(w.b, w.n, &tl, &st, 0);
	ok(rc == 0 && st.data_error == 0, "good: read (rc %d, %s)", rc, lk_error_detail());
	ok(tl.n_samples == 3 && tl.times[0] == 1 && tl.times[2] == 3, "good: 3 samples at 1, 2, 3 s");
	ok(tl.n_bands == 3 && strcmp(tl.bands[0].id, "THUNK_2_0") == 0, "good: THUNK_2_0 first of 3 bands");
	const struct lk_band *b = band(&tl, "THUNK_2_0");
	ok(b && b->values[0] == 1000 && b->values[2] == 3000 && near(b->stats.slope, 1000) &&
	   near(b->stats.fit, 1), "good: THUNK values 1000..3000, slope 1000 B/s, fit 1");
	b = band(&tl, "ghc-prim:GHC.Types.:");
	ok(b && b->values[0] == 0 && b->values[1] == 64 && b->values[2] == 0,
	   "good: a band absent from a census is 0 there");
	ok(tl.n_markers == 1 && strcmp(tl.markers[0].text, "phase one") == 0 &&
	   near(tl.markers[0].t, 0.5), "good: one marker (messages off)");
	ok(tl.n_series == 2 && strcmp(tl.series[0].name, "heap size") == 0 &&
	   tl.series[0].n == 3 && tl.series[0].values[2] == 3000000 &&
	   strcmp(tl.series[1].name, "live bytes") == 0, "good: heap size and live bytes series");
	ok(meta(&tl, "rts") && strcmp(meta(&tl, "rts"), "GHC-9.6.6 rts_l") == 0, "good: rts");
	ok(meta(&tl, "program") && strcmp(meta(&tl, "program"), "./prog -x ab") == 0 &&
	   strcmp(tl.title, "prog") == 0, "good: program args and title");
	ok(meta(&tl, "start") && strcmp(meta(&tl, "start"), "2023-11-14T22:13:20Z") == 0,
	   "good: wall-clock start (%s)", meta(&tl, "start") ? meta(&tl, "start") : "-");
	ok(meta(&tl, "breakdown") && strcmp(meta(&tl, "breakdown"), "closure type (-hT)") == 0 &&
	   strcmp(meta(&tl, "sampling interval"), "0.1 s") == 0, "good: breakdown, interval");
	ok(tl.n_warnings == 0, "good: no warnings");
	lk_timeline_release(&tl);

	rc = profile(w.b, w.n, &tl, &st, 1);
	ok(rc == 0 && tl.n_markers == 2 && strcmp(tl.markers[1].text, "a message") == 0,
	   "good: --messages adds traceEvent text");
	lk_timeline_release(&tl);

	/* the reader itself: unknown declared types come through, skipped by size */
	FILE *f = open_mem(w.b, w.n);
	struct lk_eventlog *r;
	struct lk_eventlog_event ev;
	int seen200 = 0, seen201 = 0, n = 0;
	rc = lk_eventlog_open(f, &r);
	while (rc == 0 && (rc = lk_eventlog_next(r, &ev)) == 1) {
		n++;
		seen200 |= ev.type == 200 && ev.len == 5 && ev.payload[4] == 5;
		seen201 |= ev.type == 201 && ev.len == 3 && memcmp(ev.payload, "xyz", 3) == 0;
		rc = 0;
	}
	ok(rc == 0 && seen200 && seen201, "reader: unknown declared events skipped by size");
	ok(lk_eventlog_ended(r) && lk_eventlog_offset(r) == w.n, "reader: end marker, whole file read");
	ok(lk_eventlog_type_size(r, 200) == 5 && lk_eventlog_type_size(r, 58) == 0xFFFF &&
	   lk_eventlog_type_size(r, 77) == -1, "reader: declared sizes");
	ok(strcmp(lk_eventlog_type_name(r, 58), "User marker") == 0, "reader: type names");
	lk_eventlog_close(r);
	fclose(f);
	free(w.b);
}

static void test_truncation(void)
{
	struct elw w = {0};
	write_good(&w, 1);
	size_t hdr = 0;
	{ /* header length: up to and including 'datb' */
		struct elw h = {0};
		elw_header(&h, elw_ghc_decls, ELW_NDECLS);
		hdr = h.n;
		free(h.b);
	}
	int bad_hdr = 0, bad_data = 0, crashes = 0;
	for (size_t cut = 1; cut < w.n; cut++) {
		struct lk_timeline tl;
		struct lk_profile_stats st;
		int rc = profile(w.b, cut, &tl, &st, 0);
		if (cut < hdr) {
			if (!(rc == LK_ETRUNC || (cut < 4 && rc == LK_EFORMAT)))
				bad_hdr++;
		} else if (rc != 0) {
			crashes++;
		} else if (cut == w.n - 2 || cut == hdr) {
			/* cut at an event boundary: complete, but no end marker */
			if (st.data_error || tl.n_warnings < 1 ||
			    !strstr(tl.warnings[0], "no end-of-data marker"))
				bad_data++;
		} else if (st.data_error == LK_ETRUNC) {
			if (tl.n_warnings < 1 || strncmp(tl.warnings[0], "truncated at offset ", 20))
				bad_data++;
		} else if (st.data_error != 0 || tl.n_warnings < 1 ||
			   !strstr(tl.warnings[0], "no end-of-data marker")) {
			bad_data++;
		}
		lk_timeline_release(&tl);
	}
	ok(bad_hdr == 0, "truncated inside the header: LK_ETRUNC at every cut (%d bad)", bad_hdr);
	ok(crashes == 0 && bad_data == 0,
	   "truncated inside the data: a partial timeline and a warning at every cut (%d, %d bad)",
	   crashes, bad_data);

	/* the message: offset of the cut event, time of the last good one */
	struct lk_timeline tl;
	struct lk_profile_stats st;
	size_t cut = w.n - 2 - 5; /* inside the last SAMPLE_END (18 bytes) */
	profile(w.b, cut, &tl, &st, 0);
	char want[128];
	snprintf(want, sizeof(want), "truncated at offset %zu (last complete event at 3.000 s)",
		 w.n - 2 - 18);
	ok(st.data_error == LK_ETRUNC && tl.n_warnings && strcmp(tl.warnings[0], want) == 0,
	   "truncation message: '%s'", tl.n_warnings ? tl.warnings[0] : "");
	ok(strcmp(lk_error_detail(), want) == 0, "truncation detail kept for the caller");
	ok(tl.n_samples == 2 && tl.n_warnings == 2 &&
	   strcmp(tl.warnings[1], "census at 3.000 s is incomplete (the file ends before its "
		  "end): left out of the report") == 0,
	   "the census cut in its end event is left out, those before kept ('%s')",
	   tl.n_warnings > 1 ? tl.warnings[1] : "");
	lk_timeline_release(&tl);
	free(w.b);
}

/* A census in its own global block at t seconds: band "A" of bytes. */
static void census_block(struct elw *w, uint64_t t, uint64_t bytes, int end)
{
	size_t blk = elw_block(w, t * S, 0xFFFF);
	elw_sample_begin(w, t * S);
	elw_sample_string(w, t * S, "A", bytes);
	if (end)
		elw_sample_end(w, t * S);
	elw_block_end(w, blk);
}

/* Damage in a capability's block costs only that block; damage inside a
 * census (global block) costs that census. */
static void test_resync(void)
{
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	elw_prof_begin(&w, 0, 7, S / 10);
	census_block(&w, 1, 100, 1);
	size_t blk = elw_block(&w, 2 * S, 0);
	elw_text(&w, 58, 2 * S, "kept");  /* before the damage */
	size_t at = w.n;
	elw_ev(&w, 77, 2 * S, 0, 0); /* not declared */
	elw_raw(&w, "\0\x12garbage", 9);
	elw_block_end(&w, blk);
	size_t next = w.n;
	census_block(&w, 3, 300, 1);
	size_t at2 = w.n + 24 + 18 + 10;  /* the census at 4 s: its sample */
	census_block(&w, 4, 400, 1);
	w.b[at2] = 0xEE;                  /* its type: undeclared */
	census_block(&w, 5, 500, 1);
	elw_end(&w);

	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = profile(w.b, w.n, &tl, &st, 0);
	char want[160];
	snprintf(want, sizeof(want), "bytes %zu-%zu skipped: undeclared event type 77 at offset "
		 "%zu; read on from the next event block", at, next - 1, at);
	ok(rc == 0 && st.data_error == 0 && tl.n_warnings == 3 && strcmp(tl.warnings[0], want) == 0,
	   "damaged capability block skipped: '%s'", tl.n_warnings ? tl.warnings[0] : "");
	ok(strncmp(tl.warnings[2], "census at 4.000 s is incomplete (bytes of it were skipped)", 58) == 0,
	   "damaged census left out: '%s'", tl.n_warnings > 2 ? tl.warnings[2] : "");
	const struct lk_band *a = band(&tl, "A");
	ok(tl.n_samples == 3 && a && a->values[0] == 100 && a->values[1] == 300 &&
	   a->values[2] == 500 && tl.n_markers == 1,
	   "the censuses of intact blocks are read (%zu)", tl.n_samples);
	lk_timeline_release(&tl);
	free(w.b);
}

static void test_corrupt(void)
{
	struct lk_timeline tl;
	struct lk_profile_stats st;
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	elw_text(&w, 58, S, "before");
	size_t at = w.n;
	elw_ev(&w, 77, 2 * S, 0, 0); /* not declared */
	elw_raw(&w, "garbage", 7);
	elw_end(&w);
	int rc = profile(w.b, w.n, &tl, &st, 0);
	char want[128];
	snprintf(want, sizeof(want), "corrupt at offset %zu: undeclared event type 77 "
		 "(last complete event at 1.000 s)", at);
	ok(rc == 0 && st.data_error == LK_EFORMAT && tl.n_warnings &&
	   strcmp(tl.warnings[0], want) == 0, "undeclared event id: '%s'",
	   tl.n_warnings ? tl.warnings[0] : "");
	ok(tl.n_markers == 1, "undeclared event id: events before it are kept");
	lk_timeline_release(&tl);
	free(w.b);

	/* a variable-size event whose length runs past the end of the file */
	w = (struct elw){0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	elw_text(&w, 58, S, "fine");
	at = w.n;
	elw_ev(&w, 58, 2 * S, 1, 1000);
	elw_raw(&w, "short", 5);
	rc = profile(w.b, w.n, &tl, &st, 0);
	snprintf(want, sizeof(want), "truncated at offset %zu (last complete event at 1.000 s)", at);
	ok(rc == 0 && st.data_error == LK_ETRUNC && strcmp(tl.warnings[0], want) == 0,
	   "size past the end: '%s'", tl.n_warnings ? tl.warnings[0] : "");
	lk_timeline_release(&tl);
	free(w.b);

	/* not an eventlog at all, an empty file, a broken header */
	const char *text = "hello, this is not an eventlog";
	rc = profile((const unsigned char *)text, strlen(text), &tl, &st, 0);
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "not a GHC eventlog"), "text file: LK_EFORMAT");
	ok(tl.n_bands == 0 && tl.title == NULL, "text file: empty timeline");
	rc = profile((const unsigned char *)"", 0, &tl, &st, 0);
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "empty file"), "empty file: LK_EFORMAT");
	w = (struct elw){0};
	elw_header(&w, elw_ghc_decls, 2);
	memcpy(w.b + w.n - 4, "datx", 4);
	rc = profile(w.b, w.n, &tl, &st, 0);
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "'datb'"), "bad 'datb': LK_EFORMAT (%s)",
	   lk_error_detail());
	free(w.b);
}

static void test_ipe(void)
{
	/* -hi: samples name info tables; IPE events (declared 1 byte too
	 * long, as GHC 9.6 does) give them descriptions and source locations */
	static const char *const thunk[6] = {"sat_s1Ab_info", "15", "Int", "",
					     "Main", "Main.hs:12:5-30"};
	static const char *const cons[6] = {":_con_info", "1", "[]", "", "GHC.Types", ":"};
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	elw_ipe(&w, 0, 0x40a740, thunk, 1);
	elw_ipe(&w, 0, 0x40b000, cons, 1);
	elw_prof_begin(&w, 0, 8, S);
	for (int i = 1; i <= 2; i++) {
		elw_sample_begin(&w, (uint64_t)i * S);
		elw_sample_string(&w, (uint64_t)i * S, "0x40a740", 100u * (unsigned)i);
		elw_sample_string(&w, (uint64_t)i * S, "0x40b000", 10);
		elw_sample_string(&w, (uint64_t)i * S, "0x999", 1);
		elw_sample_end(&w, (uint64_t)i * S);
	}
	elw_ipe(&w, 3 * S, 0x40c000, cons, 1); /* last event, runs 1 byte past the end */
	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = profile(w.b, w.n, &tl, &st, 0);
	ok(rc == 0 && st.data_error == 0, "IPE over-declared by one byte: read without error (%s)",
	   lk_error_detail());
	ok(tl.n_detail_columns == 5 && strcmp(tl.detail_columns[4], "source location") == 0,
	   "-hi: five detail columns");
	const struct lk_band *b = band(&tl, "0x40a740");
	ok(b && strcmp(b->label, "sat_s1Ab_info") == 0 && strcmp(b->details[1], "THUNK") == 0 &&
	   strcmp(b->details[2], "Int") == 0 && strcmp(b->details[3], "Main") == 0 &&
	   strcmp(b->details[4], "Main.hs:12:5-30") == 0, "-hi: band joined with its IPE");
	b = band(&tl, "0x999");
	ok(b && strcmp(b->label, "0x999") == 0 && b->details && !b->details[0],
	   "-hi: a table without IPE keeps its address");
	ok(tl.n_bands == 3 && strcmp(tl.bands[0].id, "0x40a740") == 0, "-hi: ranked");
	lk_timeline_release(&tl);
	free(w.b);

	/* an IPE without its six strings is corruption */
	w = (struct elw){0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	elw_ev(&w, 169, 0, 1, 12);
	elw_u64(&w, 1);
	elw_raw(&w, "ab\0c", 4);
	elw_end(&w);
	rc = profile(w.b, w.n, &tl, &st, 0);
	ok(rc == 0 && st.data_error == LK_EFORMAT && strstr(tl.warnings[0], "IPE"),
	   "IPE with missing strings: LK_EFORMAT");
	lk_timeline_release(&tl);
	free(w.b);
}

static void test_multicap(void)
{
	/* cap 1's block comes first with later times, then cap 0's, then the
	 * global block whose censuses are themselves out of order */
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	size_t b1 = elw_block(&w, 2 * S, 1);
	elw_u64ev(&w, 50, 2 * S, 200);
	elw_text(&w, 58, 2 * S + S / 2, "cap 1");
	elw_u64ev(&w, 50, 3 * S, 300);
	elw_block_end(&w, b1);
	size_t b0 = elw_block(&w, 1 * S, 0);
	elw_u64ev(&w, 50, 1 * S, 100);
	elw_text(&w, 58, 1 * S + S / 2, "cap 0");
	elw_block_end(&w, b0);
	size_t g = elw_block(&w, 0, 0xFFFF);
	elw_prof_begin(&w, 0, 7, S);
	uint64_t order[] = {3, 1, 2};
	for (int i = 0; i < 3; i++) {
		uint64_t t = order[i] * S;
		elw_sample_begin(&w, t);
		elw_sample_string(&w, t, "THUNK", 10 * order[i]);
		if (order[i] == 1)
			elw_sample_string(&w, t, "ONLY_FIRST", 7);
		elw_sample_end(&w, t);
	}
	/* a biographical census: its time is in the payload */
	elw_ev(&w, 166, 9 * S, 0, 0);
	elw_u64(&w, 0);
	elw_u64(&w, 4 * S);
	elw_sample_string(&w, 9 * S, "THUNK", 40);
	elw_sample_end(&w, 9 * S);
	elw_block_end(&w, g);
	elw_u64ev(&w, 91, 5 * S, 999); /* after the global block: no capability */
	elw_end(&w);

	FILE *f = open_mem(w.b, w.n);
	struct lk_eventlog *r;
	struct lk_eventlog_event ev;
	int caps_ok = 1, rc = lk_eventlog_open(f, &r);
	while (rc == 0 && lk_eventlog_next(r, &ev) == 1) {
		if (ev.type == 58)
			caps_ok &= ev.cap == (ev.payload[4] == '1' ? 1 : 0);
		if (ev.type == 162)
			caps_ok &= ev.cap == 0xFFFF;
		if (ev.type == 91)
			caps_ok &= ev.cap == LK_EVENTLOG_NOCAP;
	}
	ok(rc == 0 && caps_ok, "reader: events carry the capability of their block");
	lk_eventlog_close(r);
	fclose(f);

	struct lk_timeline tl;
	struct lk_profile_stats st;
	rc = profile(w.b, w.n, &tl, &st, 0);
	ok(rc == 0 && tl.n_samples == 4 && tl.times[0] == 1 && tl.times[1] == 2 &&
	   tl.times[2] == 3 && tl.times[3] == 4, "multi-cap: samples sorted by time (BIO at 4 s)");
	const struct lk_band *b = band(&tl, "THUNK");
	ok(b && b->values[0] == 10 && b->values[1] == 20 && b->values[2] == 30 && b->values[3] == 40,
	   "multi-cap: band values follow their samples");
	b = band(&tl, "ONLY_FIRST");
	ok(b && b->values[0] == 7 && b->values[1] == 0 && b->values[2] == 0,
	   "multi-cap: a band seen once stays at its sample");
	ok(tl.n_markers == 2 && strcmp(tl.markers[0].text, "cap 0") == 0 &&
	   strcmp(tl.markers[1].text, "cap 1") == 0, "multi-cap: markers sorted by time");
	ok(tl.n_series == 3 && tl.series[0].n == 3 && tl.series[0].times[0] == 1 &&
	   tl.series[0].values[0] == 100 && tl.series[0].values[2] == 300 &&
	   strcmp(tl.series[2].name, "blocks size") == 0, "multi-cap: series sorted; blocks size present");
	lk_timeline_release(&tl);
	free(w.b);
}

/* Events of a run read with lk_eventlog_next_same() are the events, with
 * the same capability and time, that lk_eventlog_next() alone returns:
 * across the end of a block (then outside any), for fixed and variable
 * sizes, and a run cut by another type. */
struct seen_event { uint16_t type, cap; uint64_t time, offset; size_t len; };

static size_t read_events(const struct elw *w, int same, struct seen_event *out, size_t max,
			  uint64_t *count)
{
	FILE *f = open_mem(w->b, w->n);
	struct lk_eventlog *r;
	struct lk_eventlog_event ev;
	size_t n = 0;
	if (lk_eventlog_open(f, &r) == 0) {
		while (n < max && lk_eventlog_next(r, &ev) == 1)
			do
				out[n++] = (struct seen_event){ev.type, ev.cap, ev.time, ev.offset, ev.len};
			while (same && n < max && lk_eventlog_next_same(r, &ev));
		*count = lk_eventlog_count(r);
		lk_eventlog_close(r);
	}
	fclose(f);
	return n;
}

static void test_next_same(void)
{
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	size_t b1 = elw_block(&w, S, 1);
	for (int i = 0; i < 3; i++)
		elw_u64ev(&w, 50, S + (uint64_t)i, 100 + (uint64_t)i);
	elw_block_end(&w, b1);
	for (int i = 0; i < 2; i++)   /* after the block: no capability */
		elw_u64ev(&w, 50, 2 * S + (uint64_t)i, 200);
	size_t g = elw_block(&w, 3 * S, 0xFFFF);
	elw_sample_begin(&w, 3 * S);
	elw_sample_string(&w, 3 * S, "A", 1);
	elw_sample_string(&w, 3 * S, "LONGER_LABEL", 2);
	elw_text(&w, 58, 3 * S, "between");
	elw_sample_string(&w, 3 * S, "B", 3);
	elw_sample_end(&w, 3 * S);
	elw_block_end(&w, g);
	elw_end(&w);
	struct seen_event a[32], b[32];
	uint64_t ca = 0, cb = 0;
	size_t na = read_events(&w, 0, a, 32, &ca), nb = read_events(&w, 1, b, 32, &cb);
	int nocap = 0, alike = nb == na;
	for (size_t i = 0; i < nb && alike; i++) {
		nocap += b[i].type == 50 && b[i].cap == LK_EVENTLOG_NOCAP;
		alike = a[i].type == b[i].type && a[i].cap == b[i].cap && a[i].time == b[i].time &&
			a[i].offset == b[i].offset && a[i].len == b[i].len;
	}
	ok(na == 13 && alike && ca == cb && nocap == 2,
	   "reader: runs of one type read alike event by event (%zu, %zu events)", na, nb);
	free(w.b);
}

/* Scheduler events in cycles, as a concurrent program writes them ("run,
 * wake up, stop" over and over; periods 2, 3, 4, 7 and 16), cut short,
 * broken by other events, by runs of one type, by markers and block
 * markers, and by wanted events of the size of the cycle's event they
 * stand in for (91, 51, 50: as large as 1, 8 and 2); and collections: the
 * same ten events and a heap size (50) again and again, now and then one
 * of the ten standing in or the heap size left out. */
static const struct elw_decl cycle_decls[] = {
	{0, 8, "Create thread"}, {1, 4, "Run thread"}, {2, 10, "Stop thread"},
	{4, 6, "Migrate thread"}, {8, 6, "Wakeup thread"}, {18, 14, "Block marker"},
	{50, 10, "Wanted, 10 bytes"}, {51, 6, "Wanted, 6 bytes"}, {91, 4, "Wanted, 4 bytes"},
	{58, 0xFFFF, "User marker"}, {200, 5, "Unknown fixed"},
};
static const uint16_t cycle_wanted[] = {50, 51, 58, 91};

static void cycle_event(struct elw *w, unsigned type, uint64_t *t)
{
	static const unsigned char zeros[16];
	unsigned size = type == 0 ? 8 : type == 1 || type == 91 ? 4 : type == 2 || type == 50 ? 10
		      : type == 200 ? 5 : 6;
	elw_ev(w, type, ++*t, 0, 0);
	elw_raw(w, zeros, size);
}

/* The wanted type as large as a cycle's type. */
static unsigned stand_in(unsigned type) { return type == 1 ? 91 : type == 2 ? 50 : 51; }

static const unsigned collection[10] = {2, 0, 8, 4, 8, 4, 1, 200, 0, 2};

static void write_cycles(struct elw *w, size_t bytes)
{
	static const unsigned cycles[5][16] = {
		{1, 2}, {1, 8, 2}, {1, 8, 4, 2}, {1, 8, 4, 0, 200, 2, 8},
		{1, 8, 4, 0, 200, 2, 8, 4, 1, 0, 0, 2, 200, 8, 4, 2}};
	static const unsigned periods[5] = {2, 3, 4, 7, 16};
	uint32_t seed = 12345;
	uint64_t t = 0;
	elw_header(w, cycle_decls, sizeof(cycle_decls) / sizeof(cycle_decls[0]));
	while (w->n < bytes) {
		size_t blk = elw_block(w, t, (unsigned)(w->n & 1));
		for (int step = 0; step < 200; step++) {
			seed = seed * 1103515245u + 12345u;
			unsigned what = seed >> 16 & 15, c = (seed >> 20) % 5, p = periods[c];
			unsigned k = 1 + (seed >> 8) % 40, cut = (seed >> 24) % p;
			if (what == 9 || what == 10) {  /* collections: a stretch, a heap size */
				for (unsigned i = 0; i < k; i++) {
					seed = seed * 1103515245u + 12345u;
					unsigned odd = seed >> 16 & 7, at = (seed >> 20) % 10;
					for (unsigned j = 0; j < 10; j++) {
						unsigned type = collection[j];
						cycle_event(w, odd == 0 && j == at ? stand_in(type) : type, &t);
					}
					if (odd != 1)   /* else two stretches in one */
						cycle_event(w, 50, &t);
				}
			} else if (what < 8) {  /* k cycles and a part of one */
				for (unsigned i = 0; i < k * p + cut; i++)
					cycle_event(w, cycles[c][i % p], &t);
			} else if (what == 8) {  /* one of them stands in */
				for (unsigned i = 0; i < 3 * p; i++) {
					unsigned type = cycles[c][i % p];
					cycle_event(w, i == p + cut ? stand_in(type) : type, &t);
				}
			} else if (what < 13) {
				cycle_event(w, what == 11 ? 200 : 0, &t);
			} else if (what < 15) {
				for (unsigned i = 0; i < 2 + k % 6; i++)
					cycle_event(w, 4, &t);
			} else {
				elw_text(w, 58, ++t, "m");
			}
		}
		elw_block_end(w, blk);
	}
	elw_end(w);
}

struct cycle_read {
	int rc;
	size_t wanted;
	uint64_t digest, count, last;
};

/* Read all of b[0..n) (f: a mapped file instead), with only the wanted
 * types asked for (fast) or every event returned. */
static struct cycle_read read_cycles(const unsigned char *b, size_t n, FILE *f, int fast)
{
	struct cycle_read out = {0};
	FILE *in = f ? f : open_mem(b, n);
	struct lk_eventlog *r;
	struct lk_eventlog_event ev;
	if (f)
		rewind(f);
	if ((out.rc = lk_eventlog_open(in, &r)) == 0) {
		if (fast)
			lk_eventlog_want_only(r, cycle_wanted, 4);
		while ((out.rc = lk_eventlog_next(r, &ev)) == 1)
			if (ev.type == 50 || ev.type == 51 || ev.type == 58 || ev.type == 91) {
				out.wanted++;
				out.digest = out.digest * 31 + ev.time * 7 + ev.offset * 3 + ev.cap;
			}
		out.count = lk_eventlog_count(r);
		out.last = lk_eventlog_last_time(r);
		lk_eventlog_close(r);
	}
	if (!f)
		fclose(in);
	return out;
}

static int same_read(struct cycle_read a, struct cycle_read b)
{
	return a.rc == b.rc && a.wanted == b.wanted && a.digest == b.digest &&
	       a.count == b.count && a.last == b.last;
}

/* Stepped over whole cycles at a time (only the wanted types asked for),
 * the file gives the wanted events, the event count and, cut anywhere, the time of
 * the last complete event that reading every event gives; in a buffer
 * that slides (2 MB: 8 times its size) and in a mapped file. */
static void test_cycles(void)
{
	struct elw w = {0};
	write_cycles(&w, 2u << 20);
	struct cycle_read all = read_cycles(w.b, w.n, NULL, 0), fast = read_cycles(w.b, w.n, NULL, 1);
	FILE *f = tmpfile();
	int written = f && fwrite(w.b, 1, w.n, f) == w.n && fflush(f) == 0;
	struct cycle_read mapped = {.rc = -1};
	if (written)
		mapped = read_cycles(NULL, 0, f, 1);
	if (f)
		fclose(f);
	ok(all.rc == 0 && all.wanted > 200 && same_read(all, fast) && same_read(all, mapped),
	   "cycles: %zu wanted of %llu events alike read whole cycles at a time (buffered and "
	   "mapped)", fast.wanted, (unsigned long long)fast.count);
	int cuts_alike = 1, inside = 0;
	size_t cut = 0;
	for (int i = 1; i < 400 && cuts_alike; i++) {
		cut = w.n * (size_t)i / 400 + (size_t)i % 17;
		struct cycle_read a = read_cycles(w.b, cut, NULL, 0), b = read_cycles(w.b, cut, NULL, 1);
		cuts_alike = (a.rc == LK_ETRUNC || a.rc == 0) && same_read(a, b);
		inside += a.rc == LK_ETRUNC;   /* 0: cut between two events */
	}
	ok(cuts_alike && inside > 300,
	   "cycles: cut at 399 places (%d inside an event), the same last event and count (%s at %zu)",
	   inside, cuts_alike ? "last" : "differ", cut);
	free(w.b);

	/* collections only, cut at every byte of the last three */
	struct elw c = {0};
	uint64_t t = 0;
	elw_header(&c, cycle_decls, sizeof(cycle_decls) / sizeof(cycle_decls[0]));
	size_t tail = 0;
	for (int i = 0; i < 30; i++) {
		if (i == 27)
			tail = c.n;
		for (unsigned j = 0; j < 10; j++)
			cycle_event(&c, collection[j], &t);
		cycle_event(&c, 50, &t);
	}
	elw_end(&c);
	cuts_alike = 1;
	for (cut = tail; cut <= c.n && cuts_alike; cut++)
		cuts_alike = same_read(read_cycles(c.b, cut, NULL, 0), read_cycles(c.b, cut, NULL, 1));
	ok(cuts_alike, "collections: cut at every byte of the last three, the same last event and "
	   "count (%s at %zu)", cuts_alike ? "last" : "differ", cut - 1);
	free(c.b);
}

static void test_cost_centres(void)
{
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	const char *ccs[][3] = {{"main", "Main", "Main.hs:5:1-20"}, {"f", "Main", "Main.hs:9:1-8"}};
	for (unsigned i = 0; i < 2; i++) {
		size_t len = 4 + strlen(ccs[i][0]) + strlen(ccs[i][1]) + strlen(ccs[i][2]) + 3 + 1;
		elw_ev(&w, 161, 0, 1, len);
		elw_u32(&w, i + 1);
		elw_strz(&w, ccs[i][0]);
		elw_strz(&w, ccs[i][1]);
		elw_strz(&w, ccs[i][2]);
		elw_u8(&w, 0);
	}
	elw_prof_begin(&w, 0, 1, S);
	elw_sample_begin(&w, S);
	elw_ev(&w, 163, S, 1, 1 + 8 + 1 + 8); /* f <- main, innermost first */
	elw_u8(&w, 0); elw_u64(&w, 4096); elw_u8(&w, 2); elw_u32(&w, 2); elw_u32(&w, 1);
	elw_ev(&w, 163, S, 1, 1 + 8 + 1 + 4);
	elw_u8(&w, 0); elw_u64(&w, 8); elw_u8(&w, 1); elw_u32(&w, 1);
	elw_sample_end(&w, S);
	elw_end(&w);
	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = profile(w.b, w.n, &tl, &st, 0);
	ok(rc == 0 && tl.n_bands == 2, "-hc: two stacks");
	const struct lk_band *b = band(&tl, "Main.f/Main.main");
	ok(b && b->values[0] == 4096 && strcmp(b->details[0], "Main") == 0 &&
	   strcmp(b->details[1], "Main.hs:9:1-8") == 0, "-hc: 'Main.f/Main.main', innermost's location");
	ok(band(&tl, "Main.main") != NULL, "-hc: 'Main.main'");
	lk_timeline_release(&tl);
	free(w.b);
}

/* --write-seeds DIR: the small files of these tests, as a fuzzing corpus */
static int write_seeds(const char *dir)
{
	struct elw w[3] = {{0}, {0}, {0}};
	write_good(&w[0], 1);
	write_good(&w[1], 0);
	elw_header(&w[2], elw_ghc_decls, ELW_NDECLS);
	static const char *const f6[6] = {"t_info", "15", "Int", "", "Main", "M.hs:1:1"};
	elw_ipe(&w[2], 0, 0x10, f6, 1);
	elw_prof_begin(&w[2], 0, 8, S);
	size_t b = elw_block(&w[2], S, 1);
	elw_u64ev(&w[2], 50, S, 4096);
	elw_u64ev(&w[2], 91, S, 4096);
	elw_text(&w[2], 58, S, "m");
	elw_block_end(&w[2], b);
	elw_sample_begin(&w[2], S);
	elw_sample_string(&w[2], S, "0x10", 64);
	elw_ev(&w[2], 163, S, 1, 1 + 8 + 1 + 4);
	elw_u8(&w[2], 0); elw_u64(&w[2], 8); elw_u8(&w[2], 1); elw_u32(&w[2], 1);
	elw_sample_end(&w[2], S);
	elw_end(&w[2]);
	for (int i = 0; i < 3; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/seed%d.eventlog", dir, i);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(w[i].b, 1, w[i].n, f) != w[i].n || fclose(f)) {
			perror(path);
			return 1;
		}
		free(w[i].b);
	}
	return 0;
}

static int stats_near(const struct lk_band_stats *a, const struct lk_band_stats *b)
{
	double tol = 1e-9 * (1 + b->peak);
	return fabs(a->integrated - b->integrated) <= 1e-9 * (1 + fabs(b->integrated)) &&
	       a->peak == b->peak && fabs(a->mean - b->mean) <= tol &&
	       fabs(a->stddev - b->stddev) <= tol && fabs(a->slope - b->slope) <= tol &&
	       fabs(a->intercept - b->intercept) <= tol * 1e3 && fabs(a->fit - b->fit) <= 1e-9;
}

/* 3000 censuses (the 11th written before the 10th): a band keeps at most
 * LK_PROFILE_SAMPLES_MAX points, means of 4 censuses here, while its
 * statistics are those of all 3000 values. Read from a real file (mapped).
 * LEFT ends at the census before the one whose end puts the first 1024 in
 * time order, and ZERO, 0 there, is in both: LEFT drops to 0 there
 * although that census has as many bands of the one before. The first
 * census also has ONCE bands, so that the later ones, which mention few of
 * all the bands, are added band by band, not all bands at once. */
static void test_long_run(void)
{
	enum { N = 3000, SORTED = LK_PROFILE_SAMPLES_MAX, ONCE = 40 };
	static double t[N], grow[N], blip[N], late[N], left[N], once[N];
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	size_t g = elw_block(&w, 0, 0xFFFF);
	elw_prof_begin(&w, 0, 7, S);
	for (int k = 0; k < N; k++) {
		int i = k == 9 ? 10 : k == 10 ? 9 : k;
		uint64_t ns = (uint64_t)(i + 1) * S + (uint64_t)(i % 7) * (S / 10);
		t[i] = (double)ns / 1e9;
		grow[i] = 1000.0 * i;
		blip[i] = i == 1500 ? 1e6 : 0;
		late[i] = i >= 2000 ? 500 : 0;
		left[i] = i < SORTED ? 700 : 0;
		elw_sample_begin(&w, ns);
		once[i] = i == 0 ? 300 : 0;
		for (int b = 0; i == 0 && b < ONCE; b++) {
			char name[16];
			snprintf(name, sizeof(name), "ONCE%d", b);
			elw_sample_string(&w, ns, name, 300);
		}
		if (i < SORTED)
			elw_sample_string(&w, ns, "LEFT", 700);
		if (i == SORTED - 1 || i == SORTED)
			elw_sample_string(&w, ns, "ZERO", 0);
		if (i >= 2000)
			elw_sample_string(&w, ns, "LATE", 500);
		elw_sample_string(&w, ns, "GROW", (uint64_t)grow[i]);
		if (i == 1500)
			elw_sample_string(&w, ns, "BLIP", 1000000);
		elw_sample_end(&w, ns);
	}
	elw_block_end(&w, g);
	elw_end(&w);
	FILE *f = tmpfile();
	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = -1;
	if (f && fwrite(w.b, 1, w.n, f) == w.n && fseek(f, 0, SEEK_SET) == 0)
		rc = lk_profile_read(f, NULL, &tl, &st);
	if (f)
		fclose(f);
	ok(rc == 0 && tl.n_samples == N / 4 && tl.n_warnings == 0 && meta(&tl, "censuses") &&
	   strcmp(meta(&tl, "censuses"), "3000") == 0 && meta(&tl, "points") &&
	   strcmp(meta(&tl, "points"), "750, each the mean of 4 censuses") == 0,
	   "long run: %d censuses drawn as %zu points, both in the metadata", N,
	   rc == 0 ? tl.n_samples : 0);
	if (rc)
		return;
	const struct lk_band *bg = band(&tl, "GROW"), *bb = band(&tl, "BLIP"), *bl = band(&tl, "LATE");
	int means = bg && bb && bl;
	for (size_t k = 0; means && k < tl.n_samples; k++) {
		double tm = (t[4 * k] + t[4 * k + 1] + t[4 * k + 2] + t[4 * k + 3]) / 4;
		means = fabs(tl.times[k] - tm) < 1e-9 && bg->values[k] == 1000.0 * (4 * k + 1.5) &&
			bb->values[k] == (k == 375 ? 250000 : 0) &&
			bl->values[k] == (k >= 500 ? 500 : 0);
	}
	ok(means, "long run: each point is the mean of its 4 censuses, in time order");
	struct lk_band_stats eg, eb, el, ef, eo;
	lk_band_stats_compute(t, once, N, &eo);
	const struct lk_band *bo = band(&tl, "ONCE7");
	ok(bo && stats_near(&bo->stats, &eo) && tl.n_bands == 5 + ONCE,
	   "long run: a band of the first census only (integrated %g, expected %g)",
	   bo ? bo->stats.integrated : 0, eo.integrated);
	lk_band_stats_compute(t, grow, N, &eg);
	lk_band_stats_compute(t, blip, N, &eb);
	lk_band_stats_compute(t, late, N, &el);
	lk_band_stats_compute(t, left, N, &ef);
	const struct lk_band *bf = band(&tl, "LEFT");
	ok(means && stats_near(&bg->stats, &eg) && stats_near(&bb->stats, &eb) &&
	   stats_near(&bl->stats, &el) && bb->stats.peak == 1e6 && bf &&
	   stats_near(&bf->stats, &ef),
	   "long run: statistics over all censuses (GROW slope %g, expected %g)",
	   bg ? bg->stats.slope : 0, eg.slope);
	lk_timeline_release(&tl);
	free(w.b);
}

/* End the global block g and the file, and read its heap profile. */
static int end_and_profile(struct elw *w, size_t g, struct lk_timeline *tl)
{
	struct lk_profile_stats st;
	elw_block_end(w, g);
	elw_end(w);
	return profile(w->b, w->n, tl, &st, 0);
}

/* Bands that come late or once, over 32 censuses: every band's value at
 * every census, whether the bands' arrays are filled eight censuses at a
 * time (censuses 16-31, as wide as all bands) or census by census (the
 * narrower ones before). */
static void test_points(void)
{
	enum { N = 32 };
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	size_t g = elw_block(&w, 0, 0xFFFF);
	elw_prof_begin(&w, 0, 7, S);
	for (int i = 0; i < N; i++) {
		uint64_t ns = (uint64_t)(i + 1) * S;
		elw_sample_begin(&w, ns);
		elw_sample_string(&w, ns, "ALL", 100 + (uint64_t)i);
		if (i == 3)
			elw_sample_string(&w, ns, "ONCE", 7);
		if (i >= 11)
			elw_sample_string(&w, ns, "LATE", 1000 + (uint64_t)i);
		elw_sample_end(&w, ns);
	}
	struct lk_timeline tl;
	int rc = end_and_profile(&w, g, &tl);
	const struct lk_band *all = rc ? NULL : band(&tl, "ALL"), *once = rc ? NULL : band(&tl, "ONCE"),
			     *late = rc ? NULL : band(&tl, "LATE");
	int same = all && once && late && tl.n_samples == N;
	for (int i = 0; same && i < N; i++)
		same = all->values[i] == 100 + i && once->values[i] == (i == 3 ? 7 : 0) &&
		       late->values[i] == (i >= 11 ? 1000 + i : 0);
	ok(same, "points: every band's value at each of %d censuses", N);
	if (rc == 0)
		lk_timeline_release(&tl);
	free(w.b);
}

/* A profile whose bands pass LK_PROFILE_VALUES_MAX: 1100 censuses of one
 * band A, the 702nd also of MANY other bands, each once. From there a band
 * keeps fewer points: 1024 -> 256 at once (701 points merged twice, the
 * odd last one alone), then 128 from the 1024th census on, means of 8
 * censuses; the statistics are still those of every census. */
static void test_many_bands(void)
{
	enum { N = 1100, AT = 701, STRIDE = 8, POINTS = (N + STRIDE - 1) / STRIDE };
	const size_t many = LK_PROFILE_VALUES_MAX / 256 - 1;  /* with A: room for 256 points */
	static double t[N], a[N], once[N];
	struct elw w = {0};
	elw_header(&w, elw_ghc_decls, ELW_NDECLS);
	size_t g = elw_block(&w, 0, 0xFFFF);
	elw_prof_begin(&w, 0, 7, S);
	for (int i = 0; i < N; i++) {
		uint64_t ns = (uint64_t)(i + 1) * S + (uint64_t)(i % 3) * (S / 10);
		t[i] = (double)ns / 1e9;
		a[i] = 100.0 * i + (i % 5);
		once[i] = i == AT ? 4000 : 0;
		elw_sample_begin(&w, ns);
		elw_sample_string(&w, ns, "A", (uint64_t)a[i]);
		for (size_t b = 0; i == AT && b < many; b++) {
			char name[24];
			snprintf(name, sizeof(name), "M%zu", b);
			elw_sample_string(&w, ns, name, 4000);
		}
		elw_sample_end(&w, ns);
	}
	struct lk_timeline tl;
	int rc = end_and_profile(&w, g, &tl);
	char want[64];
	snprintf(want, sizeof(want), "%d, each the mean of %d censuses", POINTS, STRIDE);
	ok(rc == 0 && tl.n_bands == many + 1 && tl.n_samples == POINTS && meta(&tl, "points") &&
	   strcmp(meta(&tl, "points"), want) == 0,
	   "many bands: %zu bands, %d censuses drawn as %zu points (%s)", many + 1, N,
	   rc == 0 ? tl.n_samples : 0, rc == 0 && meta(&tl, "points") ? meta(&tl, "points") : "-");
	if (rc)
		return;
	const struct lk_band *ba = band(&tl, "A"), *bm = band(&tl, "M77");
	int means = ba && bm;
	for (size_t k = 0; means && k < tl.n_samples; k++) {
		size_t i0 = k * STRIDE, i1 = i0 + STRIDE < N ? i0 + STRIDE : N;
		double tm = 0, am = 0, mm = 0;
		for (size_t i = i0; i < i1; i++)
			tm += t[i], am += a[i], mm += once[i];
		tm /= (double)(i1 - i0), am /= (double)(i1 - i0), mm /= (double)(i1 - i0);
		means = fabs(tl.times[k] - tm) < 1e-9 && fabs(ba->values[k] - am) < 1e-9 &&
			bm->values[k] == mm;
	}
	ok(means, "many bands: each point is the mean of its censuses (the last of %d)",
	   N % STRIDE ? N % STRIDE : STRIDE);
	struct lk_band_stats ea, em;
	lk_band_stats_compute(t, a, N, &ea);
	lk_band_stats_compute(t, once, N, &em);
	ok(means && stats_near(&ba->stats, &ea) && stats_near(&bm->stats, &em),
	   "many bands: statistics over all censuses (A slope %g, expected %g)", ba->stats.slope,
	   ea.slope);
	lk_timeline_release(&tl);
	free(w.b);
}

struct hi_band {
	uint64_t addr;
	const char *ipe[6];  /* NULL: no IPE entry */
	unsigned bytes, growth;
};

/* A -hi eventlog of three censuses: band i is bytes + growth * census. */
static void write_hi(struct elw *w, const struct hi_band *b, size_t n)
{
	char key[32];
	elw_header(w, elw_ghc_decls, ELW_NDECLS);
	for (size_t i = 0; i < n; i++)
		if (b[i].ipe[0])
			elw_ipe(w, 0, b[i].addr, b[i].ipe, 1);
	elw_prof_begin(w, 0, 8, S);
	for (unsigned c = 1; c <= 3; c++) {
		elw_sample_begin(w, c * S);
		for (size_t i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "0x%llx", (unsigned long long)b[i].addr);
			elw_sample_string(w, c * S, key, b[i].bytes + b[i].growth * c);
		}
		elw_sample_end(w, c * S);
	}
	elw_end(w);
}

static const struct lk_diff_row *row(const struct lk_timeline_diff *d, const char *id)
{
	for (size_t i = 0; i < d->n_rows; i++)
		if (strcmp(d->rows[i].id, id) == 0)
			return &d->rows[i];
	return NULL;
}

/* Before and after an edit of Main.hs: two lines inserted at the top (every
 * location moves down by 2), GHC's generated names renumbered, every info
 * table at another address. The leaking thunk and its neighbour of the same
 * type pair in source order; an unchanged IPE pairs exactly; a table
 * without IPE pairs by address; the rest are removed and added. */
static void test_hi_diff(void)
{
	static const struct hi_band before[] = {
		{0x40a740, {"sat_s1Ab_info", "15", "Totals", "", "Main", "Main.hs:12:5-30"}, 0, 100},
		{0x40a800, {"sat_s1Ac_info", "15", "Totals", "", "Main", "Main.hs:20:9-14"}, 50, 0},
		{0x40b000, {"Entry_Main_1_con_info", "2", "Entry", "", "Main", "Main.hs:8:11-40"}, 10, 0},
		{0x40e000, {"I#_Main_0_con_info", "3", "Int", "", "Main", ""}, 7, 0},
		{0x999, {NULL}, 1, 0},
		{0x40a900, {"lvl_r1_info", "15", "Int", "", "Main", "Main.hs:30:3-9"}, 5, 0},
	};
	static const struct hi_band after[] = {
		{0x40f000, {"I#_Main_0_con_info", "3", "Int", "", "Main", ""}, 7, 0},
		{0x40c800, {"sat_s1By_info", "15", "Totals", "", "Main", "Main.hs:22:9-14"}, 50, 0},
		{0x40c740, {"sat_s1Bx_info", "15", "Totals", "", "Main", "Main.hs:14:5-30"}, 100, 0},
		{0x40d000, {"Entry_Main_2_con_info", "2", "Entry", "", "Main", "Main.hs:10:11-40"}, 10, 0},
		{0x999, {NULL}, 1, 0},
		{0x40d900, {"sat_s1Bz_info", "16", "Text", "", "Main", "Main.hs:40:1-5"}, 3, 0},
	};
	struct elw wb = {0}, wa = {0};
	write_hi(&wb, before, sizeof(before) / sizeof(before[0]));
	write_hi(&wa, after, sizeof(after) / sizeof(after[0]));
	struct lk_timeline tb, ta;
	struct lk_profile_stats st;
	struct lk_timeline_diff d;
	int rc = profile(wb.b, wb.n, &tb, &st, 0) || profile(wa.b, wa.n, &ta, &st, 0) ||
		 lk_timeline_diff_compute(&tb, &ta, &d);
	ok(rc == 0 && d.n_rows == 7, "-hi diff: 6 + 6 bands give 7 rows (%zu)", rc ? 0 : d.n_rows);
	if (rc)
		return;
	const struct lk_diff_row *leak = row(&d, "0x40a740"), *next = row(&d, "0x40a800");
	ok(leak && leak->side == LK_DIFF_BOTH && leak->after_id &&
	   strcmp(leak->after_id, "0x40c740") == 0 && strcmp(leak->after_label, "sat_s1Bx_info") == 0 &&
	   leak->before.slope > 0 && leak->after.slope == 0,
	   "-hi diff: the leaking thunk, renamed and moved, is found after the fix");
	ok(next && next->side == LK_DIFF_BOTH && strcmp(next->after_id, "0x40c800") == 0,
	   "-hi diff: its neighbour of the same type pairs in source order");
	const struct lk_diff_row *con = row(&d, "0x40b000"), *box = row(&d, "0x40e000");
	ok(con && con->side == LK_DIFF_BOTH && strcmp(con->after_id, "0x40d000") == 0 && box &&
	   box->side == LK_DIFF_BOTH && strcmp(box->after_id, "0x40f000") == 0 &&
	   strcmp(box->after_label, "I#_Main_0_con_info") == 0,
	   "-hi diff: a renamed constructor and an unchanged IPE entry pair");
	const struct lk_diff_row *bare = row(&d, "0x999"), *gone = row(&d, "0x40a900"),
				 *new = row(&d, "0x40d900");
	ok(bare && bare->side == LK_DIFF_BOTH && !bare->after_id && gone &&
	   gone->side == LK_DIFF_BEFORE_ONLY && new && new->side == LK_DIFF_AFTER_ONLY,
	   "-hi diff: no IPE pairs by address; the others are removed and added");
	char text[4096] = "";
	FILE *f = fmemopen(text, sizeof(text) - 1, "w");
	lk_timeline_diff_write_text(&d, f, 0);
	fclose(f);
	ok(strstr(text, " sat_s1Ab_info -> sat_s1Bx_info\n") != NULL,
	   "-hi diff: the text names the band before and after");
	lk_timeline_diff_release(&d);
	lk_timeline_release(&tb);
	lk_timeline_release(&ta);
	free(wb.b);
	free(wa.b);
}

/* Markers of every text length from 0 to 1499 bytes in a row, 12 times:
 * about 13.7 MB, so events lie across the edges of the 2 MiB spans of the
 * mapped window, which moves six times. */
static void write_markers(struct elw *w)
{
	static char text[1500];
	memset(text, 'm', sizeof(text));
	elw_header(w, elw_ghc_decls, ELW_NDECLS);
	for (int round = 0; round < 12; round++)
		for (size_t n = 0; n < sizeof(text); n++) {
			text[n] = 0;
			elw_text(w, 58, (uint64_t)round * S + n, text);
			text[n] = 'm';
		}
	elw_end(w);
}

/* Events read from f as one checksum of type, time, offset and payload;
 * *count events, *rc the last lk_eventlog_next() result; with same, runs
 * of one type through lk_eventlog_next_same(). With cut_at, the file is
 * cut to cut_size bytes once an event lies past cut_at. */
static uint64_t read_all(FILE *f, int same, uint64_t *count, int *rc, uint64_t cut_at,
			 off_t cut_size)
{
	struct lk_eventlog *r;
	uint64_t sum = 0;
	*count = 0;
	if ((*rc = lk_eventlog_open(f, &r)))
		return 0;
	struct lk_eventlog_event ev;
	while ((*rc = lk_eventlog_next(r, &ev)) == 1) {
		do {
			sum = sum * 31 + ev.type + ev.time * 7 + ev.offset * 13 + ev.len;
			for (size_t i = 0; i < ev.len; i++)
				sum = sum * 3 + ev.payload[i];
			(*count)++;
			if (cut_at && ev.offset > cut_at) {
				cut_at = 0;
				if (ftruncate(fileno(f), cut_size))
					*rc = -1;
			}
		} while (same && lk_eventlog_next_same(r, &ev));
	}
	lk_eventlog_close(r);
	return sum;
}

static void test_mapped(void)
{
	struct elw w = {0};
	write_markers(&w);
	FILE *mem = fmemopen(w.b, w.n, "rb"), *file = tmpfile();
	if (!mem || !file || fwrite(w.b, 1, w.n, file) != w.n || fflush(file) ||
	    fseek(file, 0, SEEK_SET)) {
		ok(0, "mapped windows: temporary files");
		return;
	}
	uint64_t n_mem, n_file;
	int rc_mem, rc_file;
	uint64_t sum_mem = read_all(mem, 0, &n_mem, &rc_mem, 0, 0);
	uint64_t sum_file = read_all(file, 0, &n_file, &rc_file, 0, 0);
	ok(rc_mem == 0 && rc_file == 0 && n_mem == 18000 && n_file == n_mem && sum_file == sum_mem,
	   "mapped windows: the same %llu events as read(2) on a %zu-byte file",
	   (unsigned long long)n_file, w.n);
	uint64_t n_run_mem, n_run_file;
	int rc_run_mem = fseek(mem, 0, SEEK_SET), rc_run_file = fseek(file, 0, SEEK_SET);
	uint64_t sum_run_mem = rc_run_mem ? 0 : read_all(mem, 1, &n_run_mem, &rc_run_mem, 0, 0);
	uint64_t sum_run_file = rc_run_file ? 0 : read_all(file, 1, &n_run_file, &rc_run_file, 0, 0);
	ok(rc_run_mem == 0 && rc_run_file == 0 && n_run_mem == n_mem && n_run_file == n_mem &&
	   sum_run_mem == sum_mem && sum_run_file == sum_mem,
	   "runs of one type across buffers and mapped windows: the same events");

	/* cut while the window from 2 MiB is mapped: at a page's start (the
	 * next touch faults) and inside a page (its tail reads as zeros) */
	static const off_t cuts[] = {3 * 1024 * 1024, 3 * 1024 * 1024 + 100};
	for (int i = 0; i < 2; i++) {
		if (ftruncate(fileno(file), 0) || fseek(file, 0, SEEK_SET) ||
		    fwrite(w.b, 1, w.n, file) != w.n || fflush(file) || fseek(file, 0, SEEK_SET))
			break;
		read_all(file, i, &n_file, &rc_file, 2 * 1024 * 1024 + 5000, cuts[i]);
		char want[80];
		snprintf(want, sizeof(want),
			 "truncated at offset %lld, the file shrank while being read",
			 (long long)cuts[i]);
		ok(rc_file == LK_ETRUNC && strncmp(lk_error_detail(), want, strlen(want)) == 0 &&
		   n_file > 2000 && n_file < 5000,
		   "a file cut while mapped: no SIGBUS, '%s' after %llu events",
		   lk_error_detail(), (unsigned long long)n_file);
	}
	fclose(mem);
	fclose(file);
	free(w.b);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0)
		return write_seeds(argv[2]);
	test_good();
	test_truncation();
	test_corrupt();
	test_resync();
	test_ipe();
	test_multicap();
	test_next_same();
	test_cycles();
	test_cost_centres();
	test_long_run();
	test_points();
	test_many_bands();
	test_hi_diff();
	test_mapped();
	return tap_done();
}
