/*
 * live_test.c - the collector's live-block table (src/collector/live.c)
 * against a plain array: blocks put, replaced and deleted at random, the
 * count and bytes after each phase; address 0, the empty slot's mark,
 * which a damaged event ring could send, is never live and leaves the
 * count alone (its free once took the first empty slot for it, the count
 * went below zero and the table doubled until memory ran out).
 */
#include <stdlib.h>

#include "collector/live.h"
#include "tap.h"

#define N 50000u

static uint64_t sizes[N];   /* model: size of block i (address (i + 1) * 16), 0 if not live */

static uint64_t rnd(void)
{
	static uint64_t x = 0x2545f4914f6cdd1dull;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return x;
}

static int agrees(const struct lk_live *t)
{
	uint64_t count = 0, bytes = 0;
	for (size_t i = 0; i < N; i++) {
		struct lk_block *b = lk_live_get(t, (i + 1) * 16);
		if (!sizes[i] != !b || (b && b->size != sizes[i]))
			return 0;
		count += sizes[i] != 0;
		bytes += sizes[i];
	}
	return t->count == count && t->bytes == bytes;
}

int main(void)
{
	struct lk_live t;
	struct lk_block gone;
	int good = lk_live_init(&t) == 0;
	for (int round = 0; good && round < 200000; round++) {
		size_t i = rnd() % N;
		if (rnd() % 3) {
			struct lk_block b = {.addr = (i + 1) * 16, .size = 1 + rnd() % 1000};
			good = lk_live_put(&t, &b) == (sizes[i] != 0);
			sizes[i] = b.size;
		} else {
			good = lk_live_del(&t, (i + 1) * 16, &gone) == (sizes[i] ? 0 : -1) &&
			       (!sizes[i] || gone.size == sizes[i]);
			sizes[i] = 0;
		}
	}
	ok(good && agrees(&t), "puts, replacements and deletions at random: the table agrees");

	size_t count = t.count, cap = t.cap;
	uint64_t bytes = t.bytes;
	struct lk_block zero = {.addr = 0, .size = 99};
	good = lk_live_get(&t, 0) == NULL && lk_live_del(&t, 0, &gone) == -1 &&
	       lk_live_put(&t, &zero) == 0 && lk_live_get(&t, 0) == NULL;
	for (int k = 0; k < 1000; k++)
		good = good && lk_live_del(&t, 0, &gone) == -1;
	ok(good && t.count == count && t.bytes == bytes && t.cap == cap && agrees(&t),
	   "address 0 is never live; its frees leave the count, the bytes and the table alone");

	for (size_t i = 0; i < N; i++)
		if (sizes[i]) {
			good = good && lk_live_del(&t, (i + 1) * 16, &gone) == 0;
			sizes[i] = 0;
		}
	ok(good && t.count == 0 && t.bytes == 0 && agrees(&t), "everything deleted: empty");
	lk_live_release(&t);
	return tap_done();
}
