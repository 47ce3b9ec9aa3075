/*
 * follow_test.c - a trace followed as it is written (history/follow.h)
 * against lk_history_read() of the same bytes: the trace's bytes are
 * copied into a file in pieces of varied sizes (most cut a chunk in its
 * middle, some several chunks at once, some a few bytes), and after each
 * piece the follower is fed and its snapshot written as the report's JSON
 * and HTML page (cells kept, as the page has them) and as the JSON without
 * cells; each must equal what a fresh read of the file writes, the last
 * (the trace's end) included. Traces: a synthetic one written here (many
 * sites, some defined late; blocks kept long and large ones; markers,
 * snapshots, RSS samples; time steps that grow, so that the timelines'
 * sample interval doubles many times while it is followed), and the
 * trace given as argument instead (tests/cli/643-watch-follow.sh gives
 * real recordings and the 1.0 fixtures). And the synthetic trace with a
 * byte flipped: its follower fails where a read fails, with its error.
 *
 * follow_test --bench TRACE [MB [cells]]: what following costs (docs/watch.md):
 * TRACE but its last 5 x MB (default 10) copied into a file and followed
 * (open, feed, snapshot, growth ranking: a first refresh), then 5 more
 * refreshes of MB appended each (cells: keeping the page's cells, as
 * the HTML report has them); with --read instead, lk_history_read()
 * of the whole TRACE and the ranking (what a refresh cost before). Wall
 * and CPU seconds, and the process's peak RSS.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "history/follow.h"
#include "history/history.h"
#include "history/verdicts.h"
#include "report/trace/history_report.h"
#include "../support/trace_gen.h"
#include "tap.h"

#define NSITES 300
#define NEV 400000
#define POOL 4096

static uint64_t rnd(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return x;
}

/* The synthetic trace: stacks defined as they are first used, blocks
 * freed at random from a pool of the live ones (a few kept to the end). */
static void synthetic_trace(const char *path)
{
	struct lk_trace_writer *w = gen_open(path, 0);
	uint64_t live[POOL], addr = 0x10000000, t = 0;
	size_t n_live = 0;
	uint32_t defined = 0;
	char fn[32];
	for (long i = 0; i < NEV; i++) {
		t += rnd() % (1 + (uint64_t)i / 64);   /* steps that grow */
		uint32_t tid = 100 + (uint32_t)(rnd() % 3);
		uint64_t r = rnd() % 100;
		if (r < 55 || n_live == 0) {
			uint32_t site = 1 + (uint32_t)(rnd() % (2 + (uint64_t)i * NSITES / NEV));
			if (site > NSITES)
				site = NSITES;
			while (defined < site) {
				defined++;
				snprintf(fn, sizeof(fn), "site%u", defined);
				gen_stack(w, defined, defined, fn, defined % 7 ? NULL : "inl");
			}
			uint64_t size = rnd() % 10 == 0 ? 70000 + rnd() % 100000 : 1 + rnd() % 4000;
			gen_check(lk_trace_write_alloc(w, t, tid, addr, size, site), "alloc");
			if (n_live < POOL)
				live[n_live++] = addr;
			addr += 0x100000;
		} else if (r < 98) {
			size_t k = rnd() % n_live;
			if (k % 97 == 5)   /* kept for good */
				continue;
			gen_check(lk_trace_write_free(w, t, tid, live[k]), "free");
			live[k] = live[--n_live];
		} else if (r < 99) {
			gen_check(lk_trace_write_sample(w, t, 1000000 + rnd() % 5000000, 0, 0), "sample");
		} else {
			snprintf(fn, sizeof(fn), "m%ld", i / 20000);
			gen_check(rnd() % 4 ? lk_trace_write_mark(w, t, tid, fn) :
				  lk_trace_write_snapshot(w, t, tid, fn), "mark");
		}
		if (i % 9000 == 8999)
			gen_check(lk_trace_writer_flush(w), "flush");
	}
	gen_check(lk_trace_writer_close(w), "close");
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)len + 1);
	*n = b ? fread(b, 1, (size_t)len, f) : 0;
	fclose(f);
	return b;
}

/* What the reports of h write: JSON (with the leaks and the scan's
 * verdicts, built-in suppressions applied), and the HTML page when cells. */
static char *reports(const struct lk_history *h, int cells)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct lk_suppressions sup;
	struct lk_leak_report leaks = {0};
	struct lk_history_view v = {.trace = "t.lstrace", .top = 0};
	lk_suppressions_init(&sup);
	int rc = m ? lk_suppressions_add_builtin(&sup) : -ENOMEM;
	if (rc == 0 && lk_history_verdicts_apply(h) && (rc = lk_history_leaks(h, &sup, 1, &leaks)) == 0)
		v.leaks = &leaks;
	if (rc == 0)
		rc = lk_history_write_json(h, &v, m);
	if (rc == 0 && cells)
		rc = lk_history_write_html(h, &v, m);
	if (v.leaks)
		lk_leak_report_release(&leaks);
	lk_suppressions_release(&sup);
	if (m)
		fclose(m);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

/* A fresh read of path's report (NULL: not a trace yet, *rc says why). */
static char *fresh(const char *path, const struct lk_hist_options *opt, int *rc)
{
	struct lk_history h;
	FILE *f = fopen(path, "rb");
	*rc = lk_history_read(f, opt, &h);
	fclose(f);
	char *text = *rc ? NULL : reports(&h, opt->cells);
	lk_history_release(&h);
	return text;
}

static int first_difference(const char *a, const char *b)
{
	int i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	return i;
}

/* Follow the bytes of trace `src` copied into dst piece by piece. */
static void follow_pieces(const char *what, const char *src, const char *dst, int cells)
{
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END,
				      .cells = cells};
	size_t n, at = 0;
	char *bytes = slurp(src, &n);
	FILE *out = fopen(dst, "wb"), *in = NULL;
	struct lk_hist_follow fw;
	int open = 0, steps = 0, same = 0, ended = 0, rc;
	uint32_t gen_first = UINT32_MAX, gen_last = 0;   /* the timelines' doublings */
	int spans = 0, version = 0;
	if (!bytes || !out) {
		ok(0, "%s: read the trace", what);
		return;
	}
	while (at < n) {
		/* pieces of a few bytes to a few chunks */
		size_t piece = rnd() % 4 == 0 ? 1 + rnd() % 64 : 1 + rnd() % (n / 12 + 1);
		if (piece > n - at)
			piece = n - at;
		fwrite(bytes + at, 1, piece, out);
		fflush(out);
		at += piece;
		if (!open) {
			in = fopen(dst, "rb");
			rc = lk_hist_follow_open(&fw, in, &opt);
			if (rc == LK_ETRUNC) {
				lk_hist_follow_close(&fw);
				fclose(in);
				continue;
			}
			if (rc) {
				ok(0, "%s: open the follower: %s", what, lk_error_detail());
				break;
			}
			open = 1;
		}
		if ((rc = lk_hist_follow_feed(&fw))) {
			ok(0, "%s: feed at %zu bytes: %s", what, at, lk_error_detail());
			break;
		}
		struct lk_history snap;
		rc = lk_hist_follow_snapshot(&fw, &snap);
		char *a = rc ? NULL : reports(&snap, cells);
		if (rc == 0 && gen_first == UINT32_MAX)
			gen_first = snap.sampler.gen;
		gen_last = snap.sampler.gen;
		version = snap.meta.version;
		spans += snap.spans.n > 0;
		lk_history_release(&snap);
		int frc;
		char *b = fresh(dst, &opt, &frc);
		steps++;
		if (a && b && strcmp(a, b) == 0) {
			same++;
		} else if (a && b) {
			int d = first_difference(a, b);
			ok(0, "%s: at %zu of %zu bytes, differs at %d: '%.60s' vs '%.60s'", what,
			       at, n, d, a + d, b + d);
		} else {
			ok(0, "%s: at %zu bytes: snapshot %d, fresh read %d", what, at, rc, frc);
		}
		ended = fw.ended;
		free(a);
		free(b);
	}
	ok(steps > 5 && same == steps, "%s%s: %d snapshots of %d equal a fresh read", what,
	       cells ? " (cells)" : "", same, steps);
	ok(ended, "%s: the follower read the end", what);
	ok(gen_last > gen_first, "%s: the timelines' interval doubled while followed (%u to %u)",
	   what, gen_first, gen_last);
	if (cells && version >= 2)   /* (a 1.0 trace read from its file has none) */
		ok(spans > 0, "%s: %d snapshots with spans", what, spans);
	if (open)
		lk_hist_follow_close(&fw);
	if (in)
		fclose(in);
	fclose(out);
	free(bytes);
}

/* The trace src with a byte flipped past its middle, followed in two
 * halves: the second feed fails as a read of the whole damaged file
 * does, with the same error and detail. */
static void follow_damage(const char *src, const char *dst)
{
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	size_t n;
	char *bytes = slurp(src, &n), detail[300];
	FILE *out = fopen(dst, "wb"), *in = NULL;
	struct lk_hist_follow fw;
	if (!bytes || !out) {
		ok(0, "damage: read the trace");
		return;
	}
	bytes[n / 3 * 2] ^= 0x10;
	fwrite(bytes, 1, n / 2, out);
	fflush(out);
	in = fopen(dst, "rb");
	int first = lk_hist_follow_open(&fw, in, &opt);
	if (first == 0)
		first = lk_hist_follow_feed(&fw);
	fwrite(bytes + n / 2, 1, n - n / 2, out);
	fflush(out);
	int second = lk_hist_follow_feed(&fw);
	snprintf(detail, sizeof(detail), "%s", lk_error_detail());
	int again = lk_hist_follow_feed(&fw);
	lk_hist_follow_close(&fw);
	int frc;
	free(fresh(dst, &opt, &frc));
	ok(first == 0 && second == LK_EFORMAT && second == frc && again == second &&
	   strcmp(detail, lk_error_detail()) == 0,
	   "damage: fed %d then %d (again %d), a read of the file %d: '%s' vs '%s'", first, second,
	   again, frc, detail, lk_error_detail());
	fclose(in);
	fclose(out);
	free(bytes);
}

/* ---- --bench ------------------------------------------------------------ */

static double wall(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

static long peak_rss_mb(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss / 1024;
}

/* What a refresh of watch needs of h besides the history: the ranking. */
static size_t rank(const struct lk_history *h)
{
	size_t *idx = NULL, n = 0;
	if (lk_history_rank(h, LK_HIST_BY_GROWTH, 5, &idx, &n) == 0)
		for (size_t i = 0; i < n && i < 5; i++)
			lk_history_symbolize(h, &h->sites[idx[i]]);
	free(idx);
	return n;
}

/* len bytes of in into out. */
static int copy_bytes(FILE *in, FILE *out, uint64_t len)
{
	static char buf[1 << 20];
	while (len) {
		size_t k = fread(buf, 1, len < sizeof(buf) ? len : sizeof(buf), in);
		if (!k || fwrite(buf, 1, k, out) != k)
			return -1;
		len -= k;
	}
	return fflush(out);
}

static int bench_read(const char *trace)
{
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END};
	struct lk_history h;
	double w0 = wall(), c0 = cpu();
	FILE *f = fopen(trace, "rb");
	int rc = f ? lk_history_read(f, &opt, &h) : -errno;
	size_t n = rc ? 0 : rank(&h);
	printf("read whole: %.3f s wall, %.3f s CPU, %zu growing sites, %llu events; peak RSS %ld MB\n",
	       wall() - w0, cpu() - c0, n, (unsigned long long)h.events, peak_rss_mb());
	lk_history_release(&h);
	if (f)
		fclose(f);
	return rc ? 1 : 0;
}

/* One refresh: feed, snapshot, rank; what each took printed after what. */
static int refresh(struct lk_hist_follow *fw, const char *what)
{
	struct lk_history h;
	double w0 = wall(), c0 = cpu();
	int rc = lk_hist_follow_feed(fw);
	double w1 = wall();
	if (rc == 0)
		rc = lk_hist_follow_snapshot(fw, &h);
	size_t n = rc ? 0 : rank(&h);
	double w2 = wall();
	printf("%s: %.3f s wall (feed %.3f, snapshot and ranking %.3f), %.3f s CPU, "
	       "%zu growing sites, %llu events, %zu live blocks; peak RSS %ld MB\n", what,
	       w2 - w0, w1 - w0, w2 - w1, cpu() - c0, n, (unsigned long long)h.events,
	       lk_hblocks_count(&h.blocks), peak_rss_mb());
	lk_history_release(&h);
	return rc;
}

static int bench_follow(const char *trace, double mb, int cells)
{
	char dir[] = "/tmp/follow_bench.XXXXXX", dst[64];
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END,
				      .cells = cells};
	struct lk_hist_follow fw;
	uint64_t step = (uint64_t)(mb * 1048576), size;
	FILE *in = fopen(trace, "rb"), *out = NULL, *f = NULL;
	if (!in || !mkdtemp(dir))
		return 1;
	snprintf(dst, sizeof(dst), "%s/followed.lstrace", dir);
	fseek(in, 0, SEEK_END);
	size = (uint64_t)ftello(in);
	fseek(in, 0, SEEK_SET);
	int rc = size > 6 * step ? 0 : -EINVAL;
	if (rc == 0 && (!(out = fopen(dst, "wb")) || copy_bytes(in, out, size - 5 * step)))
		rc = -EIO;
	if (rc == 0 && (!(f = fopen(dst, "rb")) || lk_hist_follow_open(&fw, f, &opt)))
		rc = -EIO;
	if (rc == 0)
		rc = refresh(&fw, "first refresh");
	for (int i = 0; rc == 0 && i < 5; i++) {
		char what[64];
		snprintf(what, sizeof(what), "refresh after %.1f MB more", mb);
		rc = copy_bytes(in, out, step) ? -EIO : refresh(&fw, what);
	}
	if (f) {
		lk_hist_follow_close(&fw);
		fclose(f);
	}
	if (out)
		fclose(out);
	fclose(in);
	unlink(dst);
	rmdir(dir);
	if (rc)
		fprintf(stderr, "follow_test: bench failed (%d)\n", rc);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "--bench") == 0)
		return bench_follow(argv[2], argc > 3 ? atof(argv[3]) : 10,
				    argc > 4 && strcmp(argv[4], "cells") == 0);
	if (argc > 2 && strcmp(argv[1], "--read") == 0)
		return bench_read(argv[2]);
	char dir[] = "/tmp/follow_test.XXXXXX", src[64], dst[64];
	if (!mkdtemp(dir))
		return 1;
	snprintf(src, sizeof(src), "%s/synthetic.lstrace", dir);
	snprintf(dst, sizeof(dst), "%s/followed.lstrace", dir);
	if (argc > 1) {
		follow_pieces(argv[1], argv[1], dst, 0);
		follow_pieces(argv[1], argv[1], dst, 1);
	} else {
		synthetic_trace(src);
		follow_pieces("synthetic", src, dst, 0);
		follow_pieces("synthetic", src, dst, 1);
		follow_damage(src, dst);
	}
	unlink(src);
	unlink(dst);
	rmdir(dir);
	return tap_done();
}
