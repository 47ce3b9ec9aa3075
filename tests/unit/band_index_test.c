/*
 * band_index_test.c - the bands of a heap profile by key (band_index.h):
 * every key length from 0 to 40 bytes found again from another copy of
 * its bytes, keys that differ in one byte anywhere (the middle of a long
 * key too) kept apart, a stack and a label of the same bytes kept apart,
 * the table grown past its first size with every band still found, and
 * censuses that list their bands in the same order, then in another (the
 * band guessed from the census before right, then wrong).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventlog/band_index.h"
#include "tap.h"

/* A copy of key (n bytes) in a buffer of its own, after 8 bytes of junk
 * (the bytes before a key are read: band_index.h). */
static char *placed(const char *key, size_t n, char junk)
{
	char *buf = malloc(8 + n + 1);
	memset(buf, junk, 8);
	memcpy(buf + 8, key, n);
	buf[8 + n] = junk;
	return buf;
}

static long get(struct lk_band_index *x, const char *key, size_t n, int stack, char junk)
{
	char *buf = placed(key, n, junk);
	struct lk_band_key k;
	lk_band_key_make(&k, buf + 8, n, stack);
	long i = lk_band_index_get(x, &k);
	free(buf);
	return i;
}

static long find(struct lk_band_index *x, const char *key, size_t n, int stack, char junk)
{
	char *buf = placed(key, n, junk);
	struct lk_band_key k;
	size_t slot;
	lk_band_key_make(&k, buf + 8, n, stack);
	long i = lk_band_index_find(x, &k, &slot);
	free(buf);
	return i;
}

static void test_lengths(void)
{
	struct lk_band_index x = {0};
	char key[41];
	for (int i = 0; i < 40; i++)
		key[i] = (char)('a' + i % 26);
	int fine = 1;
	for (size_t n = 0; n <= 40; n++)
		fine &= get(&x, key, n, 0, 'x') == (long)n;
	ok(fine && x.n == 41, "41 keys of 0 to 40 bytes: 41 bands");
	fine = 1;
	for (size_t n = 0; n <= 40; n++)
		fine &= find(&x, key, n, 0, 'y') == (long)n &&
			x.names[n].n == n && memcmp(x.names[n].key, key, n) == 0 &&
			x.names[n].key[n] == 0;
	ok(fine, "each found again from other bytes around it, its name a copy");
	fine = 1;
	for (size_t n = 1; n <= 40; n++)
		for (size_t at = 0; at < n; at++) {
			char other[41];
			memcpy(other, key, n);
			other[at] = '#';
			fine &= find(&x, other, n, 0, 'x') < 0;
		}
	ok(fine, "a key that differs in any one byte is not found");
	ok(find(&x, key, 12, 1, 'x') < 0, "a stack of the same bytes as a label is not found");
	ok(get(&x, key, 12, 1, 'x') == 41 && x.names[41].stack, "... and is a band of its own");
	lk_band_index_release(&x);
}

static void test_growth(void)
{
	struct lk_band_index x = {0};
	char key[64];
	int fine = 1;
	for (int i = 0; i < 5000; i++) {
		/* cost-centre stacks that share their first and last ids */
		int n = snprintf(key, sizeof(key), "0123456789abcdef%05d-0123456789", i);
		fine &= get(&x, key, (size_t)n, 1, 'z') == i;
	}
	ok(fine && x.n == 5000, "5000 keys alike but for their middle bytes: 5000 bands");
	fine = 1;
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(key, sizeof(key), "0123456789abcdef%05d-0123456789", i);
		fine &= find(&x, key, (size_t)n, 1, 'q') == i;
	}
	ok(fine, "each found again after the table grew (%zu slots)", x.cap);
	ok(x.cap >= 2 * x.n, "the table at most half full");
	lk_band_index_release(&x);
}

static void test_orders(void)
{
	static const char *const labels[] = {"THUNK", "FUN_2_0", "ARR_WORDS", "Main.Record", "T"};
	struct lk_band_index x = {0};
	int fine = 1;
	for (int census = 0; census < 4; census++) {
		lk_band_index_census(&x);
		for (int j = 0; j < 5; j++) {
			/* the same order twice, then rotated, then reversed */
			int i = census < 2 ? j : census == 2 ? (j + 2) % 5 : 4 - j;
			fine &= get(&x, labels[i], strlen(labels[i]), 0, '!') == i;
		}
	}
	ok(fine && x.n == 5, "5 bands in the same order, rotated, reversed: each found as itself");
	lk_band_index_census(&x);
	ok(find(&x, "THUNK", 5, 0, '!') == 0 && find(&x, "FUN_2_0", 7, 0, '!') == 1 &&
	   find(&x, "ARR_WORD", 8, 0, '!') < 0 && find(&x, "Main.Record", 11, 0, '!') == 3,
	   "a key like the guessed band's but shorter is not found");
	lk_band_index_release(&x);
}

int main(void)
{
	test_lengths();
	test_growth();
	test_orders();
	return tap_done();
}
