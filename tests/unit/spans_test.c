/*
 * spans_test.c - the sample of the blocks that outlived the interval of
 * their allocation (src/history/spans.c), driven by the cells' clock as
 * the history drives it, against a plain list of every block: with few
 * such blocks the sample holds every one of them, with its allocation
 * and free intervals of the last generation of the clock (an event at
 * time t is in interval t / D + 1, D the final interval), and none that
 * fell into one interval once the clock doubled (more than LK_HSPANS_MAX
 * were offered: the full sample was compacted); with many, at most
 * LK_HSPANS_MAX, each a true one with its true intervals, spread evenly
 * over the blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "history/cells.h"
#include "history/sampler.h"
#include "history/spans.h"
#include "tap.h"

struct blk { uint64_t t, tf, size; uint32_t site; int freed; };

static uint64_t rnd(void)
{
	static uint64_t x = 0x2545f4914f6cdd1dull;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return x;
}

/* n blocks, one allocated every 2 ticks (odd times), each freed after a
 * lifetime of up to `life` ticks, or never (1 in `never`). */
static struct blk *make(size_t n, uint64_t life, unsigned never)
{
	struct blk *b = calloc(n, sizeof(*b));
	for (size_t i = 0; b && i < n; i++) {
		b[i] = (struct blk){2 * i + 1, 0, 1 + rnd() % 1000, (uint32_t)(i % 7), rnd() % never != 0};
		b[i].tf = b[i].t + 2 * (rnd() % life);
	}
	return b;
}

struct ev { uint64_t t; size_t i; int alloc; };

/* By time, the allocation of a block before its free at the same time. */
static int by_time(const void *pa, const void *pb)
{
	const struct ev *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->alloc != b->alloc)
		return a->alloc ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* The events in time order through the clock; the spans at the end. */
static int drive(const struct blk *b, size_t n, struct lk_hspans *sp, struct lk_sampler *s,
		 struct lk_hcells *c)
{
	struct ev *e = malloc(2 * n * sizeof(*e));
	size_t m = 0, next = 0;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		e[m++] = (struct ev){b[i].t, i, 1};
		if (b[i].freed)
			e[m++] = (struct ev){b[i].tf, i, 0};
	}
	qsort(e, m, sizeof(*e), by_time);
	lk_sampler_init(s);
	lk_hcells_init(c);
	lk_hcells_start(c, 0);
	lk_hspans_init(sp);
	uint64_t last = 0;
	for (size_t k = 0; k < m && rc == 0; k++) {
		lk_sampler_advance(s, e[k].t);
		rc = lk_hcells_clock(c, s, next);
		if (e[k].alloc)
			next = e[k].i + 1;
		else
			lk_hspans_add(sp, c, e[k].i, b[e[k].i].t, b[e[k].i].size, b[e[k].i].site, 1);
		last = e[k].t;
	}
	lk_sampler_finish(s, last);
	rc = rc ? rc : lk_hcells_clock(c, s, next);
	for (size_t i = 0; i < n; i++)
		if (!b[i].freed)
			lk_hspans_add(sp, c, i, b[i].t, b[i].size, b[i].site, 0);
	lk_hspans_settle(sp, c);
	free(e);
	return rc;
}

static uint16_t interval(uint64_t t, uint64_t d)
{
	return (uint16_t)(t / d + 1);
}

/* Span x is block i, with its intervals. */
static int is_block(const struct lk_hspan *x, const struct blk *b, uint64_t d)
{
	size_t i = (size_t)(x->t - 1) / 2;
	return x->t % 2 == 1 && x->size == b[i].size && x->site == b[i].site &&
	       x->a == interval(b[i].t, d) &&
	       x->f == (b[i].freed ? interval(b[i].tf, d) : LK_HCELL_NEVER);
}

static void few(void)
{
	size_t n = 60000, want = 0, good = 0;
	struct blk *b = make(n, 24, 50);
	struct lk_hspans sp;
	struct lk_sampler s;
	struct lk_hcells c;
	ok(drive(b, n, &sp, &s, &c) == 0, "few: the clock ran");
	uint64_t d = s.delta;
	for (size_t i = 0; i < n; i++)
		want += !b[i].freed || interval(b[i].t, d) != interval(b[i].tf, d);
	for (size_t k = 0; k < sp.n; k++)
		good += is_block(&sp.v[k], b, d) && sp.v[k].a != sp.v[k].f && (k == 0 || sp.v[k - 1].t < sp.v[k].t);
	ok(s.gen > 5 && want > 400 && want < LK_HSPANS_MAX / 2 && sp.seen > LK_HSPANS_MAX,
	   "few: the clock doubled %u times, %zu blocks span, %llu spanned when seen (the sample was full and merged)",
	   s.gen, want, (unsigned long long)sp.seen);
	ok(sp.n == want && good == want && sp.stride == 1, "few: all %zu of them, by time, with their intervals (%zu, %zu good)", want, sp.n, good);
	lk_hspans_release(&sp);
	lk_hcells_release(&c);
	free(b);
}

static void many(void)
{
	size_t n = 400000, want = 0, good = 0, early = 0;
	struct blk *b = make(n, 20000, 3);
	struct lk_hspans sp;
	struct lk_sampler s;
	struct lk_hcells c;
	ok(drive(b, n, &sp, &s, &c) == 0, "many: the clock ran");
	uint64_t d = s.delta;
	for (size_t i = 0; i < n; i++)
		want += !b[i].freed || interval(b[i].t, d) != interval(b[i].tf, d);
	for (size_t k = 0; k < sp.n; k++) {
		good += is_block(&sp.v[k], b, d) && sp.v[k].a != sp.v[k].f;
		early += sp.v[k].t < n;   /* allocated in the first half */
	}
	ok(want > 4 * LK_HSPANS_MAX, "many: %zu blocks span", want);
	ok(sp.n <= LK_HSPANS_MAX && sp.n >= LK_HSPANS_MAX / 4 && sp.stride > 1 && good == sp.n,
	   "many: a sample of %zu (stride %llu), each a true one (%zu)", sp.n, (unsigned long long)sp.stride, good);
	ok(early * 10 > sp.n * 4 && early * 10 < sp.n * 6, "many: even: %zu of %zu allocated in the first half", early, sp.n);
	lk_hspans_release(&sp);
	lk_hcells_release(&c);
	free(b);
}

int main(void)
{
	few();
	many();
	return tap_done();
}
