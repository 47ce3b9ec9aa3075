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
 * trace given as argument if any (tests/cli/643-watch-follow.sh gives a
 * real recording's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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
	int spans = 0;
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
	if (cells)
		ok(spans > 0, "%s: %d snapshots with spans", what, spans);
	if (open)
		lk_hist_follow_close(&fw);
	if (in)
		fclose(in);
	fclose(out);
	free(bytes);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/follow_test.XXXXXX", src[64], dst[64];
	if (!mkdtemp(dir))
		return 1;
	snprintf(src, sizeof(src), "%s/synthetic.lstrace", dir);
	snprintf(dst, sizeof(dst), "%s/followed.lstrace", dir);
	synthetic_trace(src);
	follow_pieces("synthetic", src, dst, 0);
	follow_pieces("synthetic", src, dst, 1);
	if (argc > 1) {
		follow_pieces(argv[1], argv[1], dst, 0);
		follow_pieces(argv[1], argv[1], dst, 1);
	}
	unlink(src);
	unlink(dst);
	rmdir(dir);
	return tap_done();
}
