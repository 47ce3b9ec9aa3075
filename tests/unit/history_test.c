/*
 * history_test.c - the one-pass trace analysis (src/history/) against
 * answers computed here by brute force from the list of events written:
 * peak and what was live at it, final live bytes per site, leaks of a
 * window between two markers (with and without a size filter), temporary
 * allocations, an exact diff between two snapshots, timeline samples
 * across many doublings of the sampling interval, bytes per marker of a
 * site that grows by a fixed amount per marker, the timeline of a site
 * that comes and goes (its last 0s not kept), a truncated trace, a
 * damaged one (a flipped byte; a block freed twice) and an unknown point
 * name. The random trace also with times that cross 2^32 ticks many times.
 * And a trace written uncompressed whose stacks come in two chunks: the
 * leaks' times read again from an events chunk larger than any after it;
 * the sites' values at the peak when more changes follow it than the
 * peak's log holds, and when a block of 2 GiB or more changes after it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "history/diff.h"
#include "history/history.h"
#include "../support/trace_gen.h"
#include "tap.h"

#define NSITES 8
#define NEV 40000

struct ev {
	int type;               /* LK_TRACE_ALLOC, FREE, MARK, SNAPSHOT */
	uint64_t t, addr, size;
	uint32_t tid, site;
	long freed_at;          /* ALLOC: index of its FREE, -1 never */
	long alloc_of;          /* FREE: index of its ALLOC */
	char text[16];
};

static struct ev ev[NEV];
static long nev;

static uint64_t rnd(void)
{
	static uint64_t x = 0x2545f4914f6cdd1dull;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return x;
}

/* A random trace: 3 threads, NSITES stacks, addresses reused, a marker
 * "m0".."m9" every 4000 events, snapshots "s0".."s3" every 9000; times
 * step by up to 3 << shift ticks. */
static void random_trace(const char *path, unsigned shift)
{
	struct lk_trace_writer *w = gen_open(path, 0);
	char fn[16];
	for (uint32_t k = 1; k <= NSITES; k++) {
		snprintf(fn, sizeof(fn), "site%u", k);
		gen_stack(w, k, k, fn, NULL);
	}
	long live[4096];
	int nlive = 0, marks = 0, snaps = 0;
	uint64_t t = 0, next_addr = 0x1000;
	uint64_t freed[256];
	int nfreed = 0;
	for (nev = 0; nev < NEV; nev++) {
		struct ev *e = &ev[nev];
		uint64_t r = rnd();
		t += (r & 3) << shift;
		e->t = t;
		e->tid = 1 + (uint32_t)((r >> 2) % 3);
		e->freed_at = -1;
		if (nev % 4000 == 3999 && marks < 10) {
			e->type = LK_TRACE_MARK;
			snprintf(e->text, sizeof(e->text), "m%d", marks++);
			lk_trace_write_mark(w, t, e->tid, e->text);
		} else if (nev % 9000 == 8999 && snaps < 4) {
			e->type = LK_TRACE_SNAPSHOT;
			snprintf(e->text, sizeof(e->text), "s%d", snaps++);
			lk_trace_write_snapshot(w, t, e->tid, e->text);
		} else if (nlive && (nlive >= 4000 || (r >> 8) % 100 < 45)) {
			/* free: often the last block (a temporary), else a random one */
			int i = (r >> 16) % 3 == 0 ? nlive - 1 : (int)((r >> 20) % (uint64_t)nlive);
			long a = live[i];
			live[i] = live[--nlive];
			e->type = LK_TRACE_FREE;
			e->addr = ev[a].addr;
			e->alloc_of = a;
			if ((r >> 30) % 4)
				e->tid = ev[a].tid;
			ev[a].freed_at = nev;
			if (nfreed < 256)
				freed[nfreed++] = e->addr;
			lk_trace_write_free(w, t, e->tid, e->addr);
		} else {
			e->type = LK_TRACE_ALLOC;
			e->size = 8 + (r >> 24) % 2000;
			e->site = 1 + (uint32_t)((r >> 40) % NSITES);
			e->addr = nfreed && (r >> 50) % 2 ? freed[--nfreed] : (next_addr += 0x1000);
			live[nlive++] = nev;
			lk_trace_write_alloc(w, t, e->tid, e->addr, e->size, e->site);
		}
	}
	gen_check(lk_trace_writer_close(w), "close");
}

static long find_name(int type, const char *text)
{
	for (long i = 0; i < nev; i++)
		if (ev[i].type == type && strcmp(ev[i].text, text) == 0)
			return i;
	return -1;
}

static int through_pipe;   /* read_trace() reads through a pipe: not seekable */

static int read_trace(const char *path, const struct lk_hist_options *opt, struct lk_history *h)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "cat %s", path);
	FILE *f = through_pipe ? popen(cmd, "r") : fopen(path, "rb");
	if (!f)
		return -errno;
	int rc = lk_history_read(f, opt, h);
	if (through_pipe)
		pclose(f);
	else
		fclose(f);
	return rc;
}

static int live_at(long a, long idx)  /* alloc a live just after event idx */
{
	return a <= idx && (ev[a].freed_at < 0 || ev[a].freed_at > idx);
}

static void test_random(const char *path)
{
	struct lk_hist_options opt = {.from = {.kind = LK_POINT_NAME, .name = "m2", .spec = "m2"},
				      .to = {.kind = LK_POINT_NAME, .name = "m7", .spec = "m7"}};
	struct lk_history h;
	int rc = read_trace(path, &opt, &h);
	ok(rc == 0, "random trace read (%d: %s)", rc, lk_error_detail());
	if (rc)
		return;

	/* peak and live at the peak, by replay */
	uint64_t total = 0, peak = 0, peak_site[NSITES + 1] = {0}, fin[NSITES + 1] = {0};
	long peak_idx = -1;
	uint64_t allocs = 0, frees = 0;
	for (long i = 0; i < nev; i++) {
		if (ev[i].type == LK_TRACE_ALLOC) {
			total += ev[i].size, allocs++;
			if (total > peak) {
				peak = total, peak_idx = i;
				memset(peak_site, 0, sizeof(peak_site));
				for (long a = 0; a <= i; a++)
					if (ev[a].type == LK_TRACE_ALLOC && live_at(a, i))
						peak_site[ev[a].site] += ev[a].size;
			}
		} else if (ev[i].type == LK_TRACE_FREE) {
			total -= ev[ev[i].alloc_of].size, frees++;
		}
	}
	ok(h.allocs == allocs && h.frees == frees, "allocations %lu, frees %lu",
	   (unsigned long)h.allocs, (unsigned long)h.frees);
	ok(h.peak_bytes == peak && h.peak_t == ev[peak_idx].t, "peak %lu at %lu",
	   (unsigned long)h.peak_bytes, (unsigned long)h.peak_t);
	ok(h.final_bytes == total, "final live bytes %lu", (unsigned long)total);
	int good_peak = 1, good_fin = 1;
	for (long a = 0; a < nev; a++)
		if (ev[a].type == LK_TRACE_ALLOC && ev[a].freed_at < 0)
			fin[ev[a].site] += ev[a].size;
	for (uint32_t s = 1; s <= NSITES; s++) {
		good_peak &= h.sites[s].peak_bytes == peak_site[s];
		good_fin &= h.sites[s].live_bytes == fin[s];
	}
	ok(good_peak, "every site's bytes live at the peak");
	ok(good_fin, "every site's bytes live at the end");

	/* leaks of the window [m2, m7] */
	long from = find_name(LK_TRACE_MARK, "m2"), to = find_name(LK_TRACE_MARK, "m7");
	uint64_t wb[NSITES + 1] = {0}, wc[NSITES + 1] = {0}, first[NSITES + 1], last[NSITES + 1];
	for (long a = from + 1; a < to; a++) {
		if (ev[a].type != LK_TRACE_ALLOC || !live_at(a, to))
			continue;
		uint32_t s = ev[a].site;
		if (!wc[s])
			first[s] = ev[a].t;
		last[s] = ev[a].t;
		wb[s] += ev[a].size;
		wc[s]++;
	}
	int good = 1;
	for (uint32_t s = 1; s <= NSITES; s++)
		good &= h.sites[s].win_bytes == wb[s] && h.sites[s].win_count == wc[s] &&
			(!wc[s] || (h.sites[s].win_first == first[s] && h.sites[s].win_last == last[s]));
	ok(good, "window leaks per site: bytes, objects, first and last times");

	/* temporaries: freed by the allocating thread, no allocation of it between */
	uint64_t temps[NSITES + 1] = {0};
	for (long i = 0; i < nev; i++) {
		if (ev[i].type != LK_TRACE_FREE)
			continue;
		long a = ev[i].alloc_of;
		int temp = ev[a].tid == ev[i].tid;
		for (long j = a + 1; j < i && temp; j++)
			temp = !(ev[j].type == LK_TRACE_ALLOC && ev[j].tid == ev[i].tid);
		temps[ev[a].site] += temp;
	}
	good = 1;
	uint64_t tt = 0;
	for (uint32_t s = 1; s <= NSITES; s++) {
		good &= h.sites[s].temporaries == temps[s];
		tt += temps[s];
	}
	ok(good && tt > 100, "temporary allocations per site (%lu in all)", (unsigned long)tt);

	/* the first k of a ranking are those of the whole ranking */
	good = 1;
	for (int key = LK_HIST_BY_LIVE; key <= LK_HIST_BY_LEAK; key++) {
		size_t *all, na, *top, nt;
		good &= lk_history_rank(&h, key, 0, &all, &na) == 0 && na >= 2;
		for (size_t k = 1; good && k <= na + 1; k++) {
			good &= lk_history_rank(&h, key, k, &top, &nt) == 0 && nt == na &&
				memcmp(top, all, (k < na ? k : na) * sizeof(*top)) == 0;
			free(top);
		}
		free(all);
	}
	ok(good, "every key: the first k sites of a ranking limited to k are those of the full one");
	lk_history_release(&h);

	/* the same window with --size 100-500 */
	opt.size_min = 100;
	opt.size_max = 500;
	rc = read_trace(path, &opt, &h);
	memset(wb, 0, sizeof(wb));
	for (long a = from + 1; a < to; a++)
		if (ev[a].type == LK_TRACE_ALLOC && live_at(a, to) && ev[a].size >= 100 && ev[a].size <= 500)
			wb[ev[a].site] += ev[a].size;
	good = rc == 0;
	for (uint32_t s = 1; good && s <= NSITES; s++)
		good &= h.sites[s].win_bytes == wb[s];
	ok(good, "window leaks with a size filter");
	lk_history_release(&h);

	/* an exact diff between snapshots s1 and s2 */
	struct lk_hist_options d = {.from = {.kind = LK_POINT_NAME, .which = LK_POINT_SNAPSHOT, .name = "s1"},
				    .to = {.kind = LK_POINT_NAME, .which = LK_POINT_SNAPSHOT, .name = "s2"},
				    .from_after = 1, .stop_at_to = 1};
	struct lk_tdiff df;
	rc = read_trace(path, &d, &h);
	ok(rc == 0 && lk_tdiff_within(&h, &df) == 0, "diff s1 -> s2 computed");
	long A = find_name(LK_TRACE_SNAPSHOT, "s1"), B = find_name(LK_TRACE_SNAPSHOT, "s2");
	uint64_t add[NSITES + 1] = {0}, rem[NSITES + 1] = {0};
	for (long a = 0; a < B; a++) {
		if (ev[a].type != LK_TRACE_ALLOC)
			continue;
		if (!live_at(a, A) && live_at(a, B))
			add[ev[a].site] += ev[a].size;
		if (live_at(a, A) && !live_at(a, B))
			rem[ev[a].site] += ev[a].size;
	}
	good = 1;
	for (size_t i = 0; i < df.n_rows; i++)
		good &= df.rows[i].added_bytes == add[df.rows[i].site_a] &&
			df.rows[i].removed_bytes == rem[df.rows[i].site_a];
	ok(good && df.n_rows == NSITES, "diff: added and removed bytes per site (%zu rows)", df.n_rows);
	lk_tdiff_release(&df);
	lk_history_release(&h);

	/* an unknown name: a clear error listing the names */
	struct lk_hist_options u = {.to = {.kind = LK_POINT_NAME, .name = "nope"}};
	rc = read_trace(path, &u, &h);
	ok(rc == LK_ENOTFOUND && strstr(lk_error_detail(), "'m0'") && strstr(lk_error_detail(), "'s2'"),
	   "unknown name: %s", lk_error_detail());
	lk_history_release(&h);
}

/* A site that grows by 1,024 bytes between markers, over a run long enough
 * for the sampler to double its interval many times; a churning site. */
static void test_growth(const char *path)
{
	struct lk_trace_writer *w = gen_open(path, 0);
	gen_stack(w, 1, 1, "grow", NULL);
	gen_stack(w, 2, 2, "churn", NULL);
	gen_stack(w, 3, 3, "pulse", NULL);
	enum { N = 3000 };
	uint64_t t = 0;
	for (int i = 0; i < N; i++, t += 997) {
		lk_trace_write_mark(w, t, 1, "step");
		lk_trace_write_alloc(w, t + 5, 1, 0x100000 + 0x1000ull * i, 1024, 1);
		lk_trace_write_alloc(w, t + 9, 1, 0x90000000, 50 + (uint64_t)(i * 7919 % 400), 2);
		lk_trace_write_free(w, t + 11, 1, 0x90000000);
		/* "pulse": a block now and then, 0 in between and after N / 2 */
		if (i < N / 2 && i % 300 == 0)
			lk_trace_write_alloc(w, t + 13, 1, 0xa0000000, 4096, 3);
		if (i < N / 2 && i % 300 == 120)
			lk_trace_write_free(w, t + 13, 1, 0xa0000000);
	}
	gen_check(lk_trace_writer_close(w), "close");
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	struct lk_history h;
	int rc = read_trace(path, &opt, &h);
	ok(rc == 0, "growth trace read");
	if (rc)
		return;
	const struct lk_hist_site *g = &h.sites[1];
	ok(fabs(g->per_mark - 1024) < 1e-6 && g->per_mark_fit > 0.999999, "+%.3f B per mark, fit %.6f",
	   g->per_mark, g->per_mark_fit);
	double expect = 1024 / 997e-6;
	const struct lk_band_stats *st = lk_history_site_stats(&h, g);
	ok(fabs(st->slope - expect) < 0.01 * expect && st->fit > 0.99,
	   "slope %.0f B/s (expected %.0f), fit %.4f", st->slope, expect, st->fit);
	ok(h.sampler.due <= LK_SAMPLER_POINTS && h.sampler.due > LK_SAMPLER_POINTS / 2 && h.sampler.gen > 5,
	   "%u samples after %u doublings", h.sampler.due, h.sampler.gen);
	/* sample j: bytes of "grow" after every event at time <= j * delta */
	int good = 1;
	for (uint32_t j = 0; j < h.sampler.due; j++) {
		uint64_t at = (uint64_t)j * h.sampler.delta, n = 0;
		for (int i = 0; i < N; i++)
			n += (uint64_t)i * 997 + 5 <= at;
		good &= g->series.v[j] == (float)(n * 1024);
	}
	ok(good, "every sample of the timeline is the value at its time");
	const struct lk_hist_site *p = &h.sites[3];
	good = 1;
	for (uint32_t j = 0; j < h.sampler.due; j++) {
		uint64_t at = (uint64_t)j * h.sampler.delta, live = 0;
		for (int i = 0; i < N / 2; i++) {
			if (i % 300 == 0 && (uint64_t)i * 997 + 13 <= at)
				live = 4096;
			if (i % 300 == 120 && (uint64_t)i * 997 + 13 <= at)
				live = 0;
		}
		good &= (j < p->series.n ? p->series.v[j] : 0) == (float)live;
	}
	ok(good && p->series.n < h.sampler.due / 2 + 2,
	   "a site that comes and goes: every sample right, its last 0s not kept (%u of %u)",
	   p->series.n, h.sampler.due);
	size_t *idx, n;
	ok(lk_history_rank(&h, LK_HIST_BY_GROWTH, 0, &idx, &n) == 0 && n >= 1 && idx[0] == 1,
	   "the growing site ranks first by slope");
	free(idx);
	lk_history_release(&h);
}

/* Uncompressed: [stack 1][20,000 events, 100 leaks][stack 2][1 event].
 * The analysis keeps the reader's buffer of each STACKS chunk; the leaks'
 * times come from the first events chunk, read again at the end. */
static void test_stacks_later(const char *path)
{
	struct lk_trace_writer *w = gen_open(path, 1);
	gen_stack(w, 1, 1, "early", NULL);
	uint64_t t = 1000;
	for (int i = 0; i < 10000; i++, t += 3) {
		lk_trace_write_alloc(w, t, 1, 0x100000 + 0x100ull * (i % 100), 40, 1);
		if (i < 9900)
			lk_trace_write_free(w, t + 1, 1, 0x100000 + 0x100ull * (i % 100));
	}
	gen_check(lk_trace_writer_flush(w), "flush");
	gen_stack(w, 2, 2, "late", NULL);
	lk_trace_write_alloc(w, t, 1, 0x900000, 7, 2);
	gen_check(lk_trace_writer_close(w), "close");
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	struct lk_history h;
	int rc = read_trace(path, &opt, &h);
	ok(rc == 0 && h.n_sites > 2 && h.sites[1].win_count == 100 && h.sites[2].win_count == 1,
	   "stacks in two chunks: read (%s)", rc ? lk_error_detail() : "");
	uint64_t first = 1000 + 3 * 9900, last = first + 3 * 99;
	ok(rc == 0 && h.sites[1].win_first == first && h.sites[1].win_last == last &&
	   h.sites[2].win_first == t, "the leaks' times, read again: %llu .. %llu",
	   rc ? 0ull : (unsigned long long)h.sites[1].win_first,
	   rc ? 0ull : (unsigned long long)h.sites[1].win_last);
	if (rc == 0)
		lk_history_release(&h);
}

/* The peak's trace: site 1 keeps 10 x 100 B, site 2 gets 5,000 B (the
 * peak, 6,000 B), frees it; then `churn` pairs of site 3's 10 B allocated
 * and freed (more changes than the peak's log holds when large); with
 * `huge`, a block of 3 GiB at site 1 (the peak), freed, and 10 B at site
 * 2. The sites' bytes and blocks at the peak against the expected ones. */
static void test_peak(const char *path, int churn, int huge)
{
	struct lk_trace_writer *w = gen_open(path, 0);
	gen_stack(w, 1, 1, "keep", NULL);
	gen_stack(w, 2, 2, "burst", NULL);
	gen_stack(w, 3, 3, "churn", NULL);
	uint64_t t = 100;
	for (int i = 0; i < 10; i++)
		lk_trace_write_alloc(w, t++, 1, 0x10000 + 0x100ull * i, 100, 1);
	lk_trace_write_alloc(w, t++, 1, 0x20000, 5000, 2);
	lk_trace_write_free(w, t++, 1, 0x20000);
	for (int i = 0; i < churn; i++) {
		lk_trace_write_alloc(w, t++, 1, 0x30000, 10, 3);
		lk_trace_write_free(w, t++, 1, 0x30000);
	}
	if (huge) {
		lk_trace_write_alloc(w, t++, 1, 0x40000000, 3ull << 30, 1);
		lk_trace_write_free(w, t++, 1, 0x40000000);
		lk_trace_write_alloc(w, t++, 1, 0x20000, 10, 2);
	}
	gen_check(lk_trace_writer_close(w), "close");
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	struct lk_history h;
	int rc = read_trace(path, &opt, &h);
	uint64_t want[4][2] = {{0, 0}, {huge ? 1000 + (3ull << 30) : 1000, huge ? 11 : 10},
			       {huge ? 0 : 5000, huge ? 0 : 1}, {0, 0}};
	int good = rc == 0 && h.n_sites > 3 && h.peak_bytes == want[1][0] + want[2][0];
	for (int k = 1; good && k <= 3; k++)
		good = h.sites[k].peak_bytes == want[k][0] && h.sites[k].peak_count == want[k][1];
	ok(good, "the sites at the peak, %d changes after it%s", 2 * churn,
	   huge ? ", then a peak of 3 GiB freed" : "");
	if (rc == 0)
		lk_history_release(&h);
}

/* A trace cut inside its second chunk: reported up to the first, with a
 * warning; a flipped byte: LK_EFORMAT. */
static void test_damage(const char *path, const char *cut)
{
	struct lk_trace_writer *w = gen_open(path, 1);
	gen_stack(w, 1, 1, "early", NULL);
	for (int i = 0; i < 100; i++)
		lk_trace_write_alloc(w, 10 + i, 1, 0x1000 + 0x100ull * i, 10, 1);
	lk_trace_writer_flush(w);
	long good_end = (long)lk_trace_writer_offset(w);
	for (int i = 0; i < 100; i++)
		lk_trace_write_alloc(w, 1000 + i, 1, 0x100000 + 0x100ull * i, 10, 1);
	gen_check(lk_trace_writer_close(w), "close");
	FILE *in = fopen(path, "rb"), *out = fopen(cut, "wb");
	char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf), in);
	fwrite(buf, 1, (size_t)good_end + 30, out);
	fclose(out);
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	struct lk_history h;
	int rc = read_trace(cut, &opt, &h);
	ok(rc == 0 && h.truncated && h.n_warnings == 1 && h.allocs == 100 && h.win_count == 100,
	   "truncated: %lu allocations reported, warning '%s'", (unsigned long)h.allocs,
	   h.n_warnings ? h.warnings[0] : "");
	lk_history_release(&h);

	buf[good_end + 60] ^= 0x40;
	out = fopen(cut, "wb");
	fwrite(buf, 1, n, out);
	fclose(out);
	fclose(in);
	rc = read_trace(cut, &opt, &h);
	ok(rc == LK_EFORMAT, "a flipped byte: %s", lk_error_detail());
	lk_history_release(&h);

	/* checksums right, events wrong: a block freed twice (a numbered
	 * writer trusts its caller) */
	struct lk_trace_writer_options o = {.numbered = 1};
	struct lk_trace_meta meta = {.pid = 1, .tick_ns = 1000};
	gen_check(lk_trace_writer_open(cut, &meta, &o, &w), "open");
	for (int i = 0; i < 10; i++)
		lk_trace_write_alloc(w, 10 + i, 1, 0x1000 + 0x100ull * i, 10, 0);
	lk_trace_write_free_number(w, 30, 1, 3, 0x1300, 10);
	lk_trace_write_free_number(w, 31, 1, 3, 0x1300, 10);
	gen_check(lk_trace_writer_close(w), "close");
	rc = read_trace(cut, &opt, &h);
	ok(rc == LK_EFORMAT && strstr(lk_error_detail(), "free of a block freed before in record 11 "
					"of the EVENTS chunk 0"), "a block freed twice: %s",
	   rc ? lk_error_detail() : "no error");
	lk_history_release(&h);
}

/* The cells of site i: its live bytes at sample j (j = due: at the end),
 * and how many blocks it allocated. */
static uint64_t temps_seen;   /* temporaries in the cells cells_live read */

static double cells_live(const struct lk_history *h, uint32_t site, uint32_t j, uint64_t *allocs)
{
	double live = 0;
	*allocs = 0;
	for (size_t k = 0; k < h->cells.n; k++) {
		const struct lk_hcell *c = &h->cells.slots[k];
		if (c->site != site)
			continue;
		*allocs += c->count;
		temps_seen += c->temps;
		if ((c->a == LK_HCELL_BEFORE || c->a <= j) && (c->f == LK_HCELL_NEVER || c->f > j))
			live += (double)c->bytes;
	}
	return live;
}

/* The cells agree with what the pass computed: for every site, its live
 * bytes at every sample and at the end, and its allocations, whatever the
 * doublings of the clock. */
static void test_cells(const char *path, const char *what)
{
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END, .cells = 1};
	struct lk_history h;
	int rc = read_trace(path, &opt, &h);
	ok(rc == 0, "%s: read with cells", what);
	if (rc)
		return;
	int good = 1, sorted = 1;
	for (size_t k = 1; k < h.cells.n; k++)
		sorted &= h.cells.slots[k - 1].site <= h.cells.slots[k].site;
	for (size_t i = 0; i < h.n_sites; i++) {
		const struct lk_hist_site *s = &h.sites[i];
		double *v = lk_history_site_values(&h, i);
		uint64_t allocs = 0;
		for (uint32_t j = 0; v && j < h.sampler.due; j++)
			good &= cells_live(&h, s->id, j, &allocs) == v[j];
		temps_seen = 0;
		good &= v && cells_live(&h, s->id, h.sampler.due, &allocs) == (double)s->live_bytes;
		good &= allocs == s->allocs && temps_seen == s->temporaries;
		free(v);
	}
	ok(good && sorted && h.cells.n > 0,
	   "%s: %zu cells give every site's live bytes at its %u samples (gen %u), allocations, temporaries",
	   what, h.cells.n, h.sampler.due, h.sampler.gen);
	lk_history_release(&h);
}

int main(void)
{
	char dir[] = "/tmp/history_test.XXXXXX", p1[64], p2[64], p3[64], p4[64];
	if (!mkdtemp(dir))
		return 1;
	snprintf(p1, sizeof(p1), "%s/random.lstrace", dir);
	snprintf(p2, sizeof(p2), "%s/growth.lstrace", dir);
	snprintf(p3, sizeof(p3), "%s/damage.lstrace", dir);
	snprintf(p4, sizeof(p4), "%s/cut.lstrace", dir);
	random_trace(p1, 0);
	test_random(p1);
	/* times past 32 bits, many times over: read again from the file at the
	 * end, or kept with the blocks when read from a pipe */
	random_trace(p1, 22);
	test_random(p1);
	through_pipe = 1;
	test_random(p1);
	through_pipe = 0;
	test_cells(p1, "random");
	test_growth(p2);
	test_cells(p2, "growth");
	test_stacks_later(p2);
	test_peak(p2, 10, 0);
	test_peak(p2, 20000, 0);
	test_peak(p2, 20000, 1);
	test_damage(p3, p4);
	unlink(p1);
	unlink(p2);
	unlink(p3);
	unlink(p4);
	rmdir(dir);
	return tap_done();
}
