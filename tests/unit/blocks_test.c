/*
 * blocks_test.c - the live blocks of the trace analysis by allocation
 * number (src/history/blocks.c) against a plain array of every block:
 * a heap that grows (the ring doubles), churn with long-lived blocks (they
 * move to the old table), blocks freed after the ring grew past them,
 * frees in allocation order and at random, numbers skipped (allocations
 * without a block), frees of blocks that are not live, blocks of 4 GiB and
 * more (kept apart); after each phase every live block found with its
 * number, size, time and site, nothing else, and the totals right. And a
 * small ring a third full when it wraps: it doubles, no block moves out.
 * The phases with the allocation times kept and not; with sizes and sites
 * that fit a ring entry's 16 bits, with sites past 16 bits from some
 * point on, with many blocks of 64 KiB or more (escaped entries).
 */
#include <stdlib.h>
#include <string.h>

#include "history/blocks.h"
#include "tap.h"

#define N 3000000u          /* allocation numbers used */

static uint64_t *size_of;   /* model: size + 1 of each live number, 0 if not live */
static uint64_t next;       /* numbers below were handed out */
static uint64_t live_count, live_bytes, peak_live;
static int bad, keep_times;
static enum { FEW_ESCAPED, FAR_SITES, BIG_SIZES } variant;   /* how many blocks are escaped */

static uint64_t rnd(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return x;
}

/* Block n's site: from 250,000 on past 16 bits in FAR_SITES. */
static uint32_t site_of(uint64_t n)
{
	return (uint32_t)(n % 77) + (variant == FAR_SITES && n >= 250000 ? 70000 : 0);
}

/* Block n's size: 1 in 1009 of 4 GiB or more; in BIG_SIZES, 1 in 8 of
 * 64 KiB or more, as 1 in 400 in the others. */
static uint64_t size_of_new(uint64_t n)
{
	uint64_t size = 1 + rnd() % 5000;
	if (n % (variant == BIG_SIZES ? 8 : 400) == 0)
		size += 65536;
	return n % 1009 == 0 ? size + (5ull << 30) : size;
}

static void add(struct lk_hblocks *t, uint64_t skip)
{
	uint64_t n = next + skip, size = size_of_new(n);
	if (n >= N || lk_hblocks_add(t, n, size, n * 3, site_of(n))) {
		bad++;
		return;
	}
	size_of[n] = size + 1;
	next = n + 1;
	live_count++;
	live_bytes += size;
	if (live_count > peak_live)
		peak_live = live_count;
}

static void take(struct lk_hblocks *t, uint64_t n)
{
	uint64_t size;
	uint32_t site;
	int found = lk_hblocks_take(t, n, &size, &site);
	if (!size_of[n]) {
		bad += found;
		return;
	}
	if (!found || size != size_of[n] - 1 || site != site_of(n)) {
		bad++;
		return;
	}
	live_bytes -= size_of[n] - 1;
	live_count--;
	size_of[n] = 0;
}

/* Every block the table iterates over is live, each once, as added; the
 * totals. */
static int consistent(const struct lk_hblocks *t)
{
	uint64_t count = 0, bytes = 0, sum_t = 0, want_t = 0;
	lk_hblocks_foreach(t, b) {
		if (b.number >= next || size_of[b.number] != b.size + 1 || b.site != site_of(b.number))
			return 0;
		/* not kept: but for the blocks of 4 GiB and more, added
		 * to the old table at once */
		if (!keep_times && b.t != (b.size >> 32 ? b.number * 3 : LK_HBLOCK_NO_TIME))
			return 0;
		count++;
		bytes += b.size;
		sum_t += keep_times ? b.t : 0;
	}
	for (uint64_t n = 0; keep_times && n < next; n++)
		if (size_of[n])
			want_t += n * 3;
	return count == live_count && bytes == live_bytes && sum_t == want_t &&
	       lk_hblocks_count(t) == live_count;
}

/* A small ring a third full when it wraps doubles rather than send its
 * blocks to the old table; each is found after. */
static int small_ring_doubles(void)
{
	struct lk_hblocks t;
	uint64_t size, n;
	uint32_t site;
	int good = lk_hblocks_init(&t, 1) == 0;
	for (n = 0; good && n < 2 * LK_HBLOCKS_RING_MIN; n++) {
		good = lk_hblocks_add(&t, n, n % 4096 + 1, n, 7) == 0;
		if (n < LK_HBLOCKS_RING_MIN && n % 3)
			good = good && lk_hblocks_take(&t, n, &size, &site);
	}
	good = good && t.ring_mask + 1 == 2 * LK_HBLOCKS_RING_MIN && t.old_count == 0;
	for (n = 0; good && n < 2 * LK_HBLOCKS_RING_MIN; n++)
		if (n >= LK_HBLOCKS_RING_MIN || n % 3 == 0)
			good = lk_hblocks_take(&t, n, &size, &site) && size == n % 4096 + 1 &&
			       site == 7;
	good = good && lk_hblocks_count(&t) == 0;
	lk_hblocks_release(&t);
	return good;
}

/* The phases, with the allocation times kept or not (then every block
 * listed but those of 4 GiB or more, added to the old table at once, has
 * none); sites and sizes by the variant. */
static void phases(int keep, int which)
{
	static const char *const names[] = {"few blocks escaped", "sites past 16 bits from block "
					    "250,000 on", "one block in 8 of 64 KiB or more"};
	keep_times = keep;
	variant = which;
	next = live_count = live_bytes = peak_live = 0;
	struct lk_hblocks t;
	size_of = calloc(N, sizeof(*size_of));
	ok(size_of && lk_hblocks_init(&t, keep) == 0, "init, times %s, %s",
	   keep ? "kept" : "not kept", names[variant]);

	/* a heap that grows: 200,000 blocks kept */
	for (int i = 0; i < 200000; i++)
		add(&t, 0);
	ok(!bad && consistent(&t), "200,000 blocks kept: all found");
	ok(t.ring_mask + 1 >= 200000 && t.old_count == 199,
	   "the ring grew to hold them (%llu entries), none moved out (but the 199 of 4 GiB "
	   "or more)", (unsigned long long)(t.ring_mask + 1));

	/* churn: each allocation followed by a free, of a recent block (most
	 * die young; 1 in 50 lives long) or, 1 in 50, of any block */
	for (int i = 0; i < 1500000; i++) {
		add(&t, 0);
		uint64_t x = rnd();
		if (x % 50 == 0)
			take(&t, (x >> 8) % next);
		else if ((x >> 8) % 50 != 0)
			take(&t, next - 1 - (x >> 16) % 64);
	}
	ok(!bad && consistent(&t), "churn with long-lived blocks: all found (%zu in the old table)",
	   t.old_count);
	ok(t.old_count > 10000, "long-lived blocks moved out to the old table");

	/* the first 100,000 freed in allocation order, then half of the rest */
	for (uint64_t n = 0; n < 100000; n++)
		take(&t, n);
	for (uint64_t n = 100000; n < next; n++)
		if (rnd() % 2)
			take(&t, n);
	ok(!bad && consistent(&t), "frees in order and at random");

	/* numbers skipped, small and larger than the ring */
	for (int i = 0; i < 1000; i++)
		add(&t, rnd() % 4 == 0 ? rnd() % 100 : 0);
	add(&t, (uint64_t)t.ring_mask + 12345);
	for (int i = 0; i < 1000; i++)
		add(&t, 0);
	ok(!bad && consistent(&t), "numbers skipped (one gap longer than the ring)");

	/* frees of blocks that are not live, or were never made */
	for (uint64_t n = 0; n < 1000; n++)
		take(&t, n);
	uint64_t size;
	uint32_t site;
	ok(!bad && !lk_hblocks_take(&t, next, &size, &site) &&
	   !lk_hblocks_take(&t, next + 99999, &size, &site),
	   "a block not live, or not made yet, is not found");

	/* everything freed */
	for (uint64_t n = 0; n < next; n++)
		take(&t, n);
	ok(!bad && consistent(&t) && lk_hblocks_count(&t) == 0 && t.old_count == 0,
	   "everything freed: empty");
	ok(t.ring_mask + 1 <= 4 * peak_live, "ring of %llu entries for a peak of %llu live blocks",
	   (unsigned long long)(t.ring_mask + 1), (unsigned long long)peak_live);
	lk_hblocks_release(&t);
	free(size_of);
}

int main(void)
{
	ok(small_ring_doubles(), "a small ring a third full doubles; no block moves out");
	for (int which = FEW_ESCAPED; which <= BIG_SIZES; which++) {
		phases(1, which);
		phases(0, which);
	}
	return tap_done();
}
