/*
 * dtoa_test.c - lk_dtoa (src/report/dtoa.c): the layout of chosen values
 * (plain, with an exponent, signs, the smallest and largest doubles), and
 * over random doubles of every kind (any bit pattern, decimals of a few
 * digits, quotients) that the text reads back (strtod) as the very same
 * double, in at most 17 digits, and that nearly always no text with
 * fewer digits would (Grisu2 misses the shortest when it lies at the very
 * edge of the double's interval).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/dtoa.h"
#include "tap.h"

static const char *text_of(double v)
{
	static char buf[LK_DTOA_MAX + 1];
	buf[lk_dtoa(v, buf)] = 0;
	return buf;
}

static uint64_t rnd(void)
{
	static uint64_t x = 88172645463325252ull;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return x;
}

/* Significant digits of a text (no sign, leading or trailing zeros, exponent). */
static int significant(const char *t)
{
	char d[LK_DTOA_MAX];
	int n = 0, a = 0;
	for (; *t && *t != 'e'; t++)
		if (*t >= '0' && *t <= '9')
			d[n++] = *t;
	while (a < n && d[a] == '0')
		a++;
	while (n > a && d[n - 1] == '0')
		n--;
	return n - a;
}

/* The fewest significant digits that read back as v. */
static int shortest(double v)
{
	char buf[64];
	for (int p = 1; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return p;
	}
	return 17;
}

static double random_double(long i)
{
	uint64_t b = rnd();
	double v;
	switch (i % 3) {
	case 0:
		memcpy(&v, &b, sizeof(v));   /* any bit pattern: subnormals, huge */
		return v;
	case 1:
		return (double)(b % 100000000) / pow(10, (double)(b >> 59));
	default:
		return (double)(int64_t)b / (double)(1 + rnd() % 1000);
	}
}

int main(void)
{
	static const struct { double v; const char *text; } cases[] = {
		{0.0, "0"}, {-0.0, "-0"}, {1, "1"}, {-7, "-7"}, {0.1, "0.1"}, {0.3, "0.3"},
		{1.0 / 3, "0.3333333333333333"}, {4.35, "4.35"}, {1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{1e22, "1e+22"}, {123456789012345678.0, "123456789012345680"},
		{1e-6, "0.000001"}, {1.234e-6, "0.000001234"}, {1e-7, "1e-7"},
		{-2.5e-300, "-2.5e-300"}, {5e-324, "5e-324"},
		{2.2250738585072014e-308, "2.2250738585072014e-308"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{9007199254740993.0, "9007199254740992"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *t = text_of(cases[i].v);
		ok(strcmp(t, cases[i].text) == 0, "%.17g is written '%s' (got '%s')", cases[i].v,
		   cases[i].text, t);
	}

	long n = 0, wrong = 0, longer = 0, checked = 0;
	int most = 0;
	for (long i = 0; n < 3000000; i++) {
		double v = random_double(i);
		if (!isfinite(v))
			continue;
		n++;
		const char *t = text_of(v);
		double back = strtod(t, NULL);
		if (memcmp(&back, &v, sizeof(v)) && wrong++ < 5)
			printf("# %.17g written as %s\n", v, t);
		if (significant(t) > most)
			most = significant(t);
		if (n % 16 == 0) {
			checked++;
			longer += significant(t) > shortest(v);
		}
	}
	ok(!wrong && most <= 17, "%ld random doubles read back as themselves (at most %d digits)",
	   n, most);
	ok(longer * 20 < checked, "%ld of %ld have more digits than the shortest", longer, checked);
	return tap_done();
}
