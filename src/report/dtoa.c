/*
 * dtoa.c - doubles to decimal text by Grisu2 ("Printing floating-point
 * numbers quickly and accurately with integers", PLDI 2010): the digits
 * of the shortest decimal inside the interval of reals that round to the
 * double, found with 64-bit integers and one cached power of ten. The
 * text always reads back as the same double; for 1 to 2% of doubles it
 * has more digits than the shortest (tests/unit/dtoa_test.c). About 4
 * times faster than printf's "%.17g", which also writes 0.1 as
 * 0.10000000000000001.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/dtoa.h"

/* f * 2^e */
struct diyfp {
	uint64_t f;
	int e;
};

/* 10^k for k = -348, -340, ... 340: significand (top bit set) and binary
 * exponent, rounded to nearest (generated with exact rational arithmetic). */
static const struct diyfp cached_powers[] = {
#include "report/dtoa_powers.inc"
};

static const uint64_t powers_of_10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

/* a * b, the upper 64 bits rounded */
static struct diyfp multiply(struct diyfp a, struct diyfp b)
{
	unsigned __int128 p = (unsigned __int128)a.f * b.f;
	uint64_t hi = (uint64_t)(p >> 64), lo = (uint64_t)p;
	return (struct diyfp){hi + (lo >> 63), a.e + b.e + 64};
}

static struct diyfp normalize(struct diyfp x)
{
	int s = __builtin_clzll(x.f);
	return (struct diyfp){x.f << s, x.e - s};
}

/* The power c = 10^-k (returned in *k) that brings a product with a
 * number of binary exponent e into [2^-60, 2^-32) of exponent. */
static struct diyfp cached_power(int e, int *k)
{
	double dk = (-61 - e) * 0.30102999566398114 + 347;
	int ik = (int)dk;
	if (dk - ik > 0.0)
		ik++;
	unsigned i = (unsigned)((ik >> 3) + 1);
	*k = -(-348 + (int)(i << 3));
	return cached_powers[i];
}

/* Move the last digit down while the number stays inside the interval
 * and gets closer to the exact value (distance wp_w from the upper end). */
static void round_last(char *buf, size_t len, uint64_t delta, uint64_t rest, uint64_t ten_kappa,
		       uint64_t wp_w)
{
	while (rest < wp_w && delta - rest >= ten_kappa &&
	       (rest + ten_kappa < wp_w || wp_w - rest > rest + ten_kappa - wp_w)) {
		buf[len - 1]--;
		rest += ten_kappa;
	}
}

static int digits32(uint32_t n)
{
	int d = 1;
	while (d < 10 && n >= powers_of_10[d])
		d++;
	return d;
}

/* The leading digit of *p (kappa digits), taken off it: divisions by
 * constants (multiplications), not by a power read from a table. */
static uint32_t leading_digit(uint32_t *p, int kappa)
{
	uint32_t d;
#define DIGIT(k, pow) case k: d = *p / pow; *p %= pow; break;
	switch (kappa) {
	DIGIT(10, 1000000000u) DIGIT(9, 100000000u) DIGIT(8, 10000000u) DIGIT(7, 1000000u)
	DIGIT(6, 100000u) DIGIT(5, 10000u) DIGIT(4, 1000u) DIGIT(3, 100u) DIGIT(2, 10u)
	default: d = *p; *p = 0; break;
	}
#undef DIGIT
	return d;
}

/* The digits of the scaled upper end mp, as few as leave it within delta
 * of it, at buf; *k gets the decimal exponent of the last. */
static size_t digit_gen(struct diyfp w, struct diyfp mp, uint64_t delta, char *buf, int *k)
{
	int shift = -mp.e;
	uint64_t one = 1ull << shift, wp_w = mp.f - w.f;
	uint32_t p1 = (uint32_t)(mp.f >> shift);
	uint64_t p2 = mp.f & (one - 1);
	size_t len = 0;
	int kappa = digits32(p1);
	while (kappa > 0) {
		uint32_t d = leading_digit(&p1, kappa);
		if (d || len)
			buf[len++] = (char)('0' + d);
		kappa--;
		uint64_t rest = ((uint64_t)p1 << shift) + p2;
		if (rest <= delta) {
			*k += kappa;
			round_last(buf, len, delta, rest, powers_of_10[kappa] << shift, wp_w);
			return len;
		}
	}
	for (;;) {
		p2 *= 10;
		delta *= 10;
		char d = (char)(p2 >> shift);
		if (d || len)
			buf[len++] = (char)('0' + d);
		p2 &= one - 1;
		kappa--;
		if (p2 < delta) {
			*k += kappa;
			round_last(buf, len, delta, p2, one, -kappa < 20 ? wp_w * powers_of_10[-kappa] : 0);
			return len;
		}
	}
}

/* The digits of v > 0 (finite) at buf, v ~ digits * 10^*k; their count. */
static size_t grisu2(double v, char *buf, int *k)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	int be = (int)(bits >> 52 & 0x7ff);
	uint64_t frac = bits & ((1ull << 52) - 1);
	struct diyfp x = be ? (struct diyfp){frac | 1ull << 52, be - 1075}
			    : (struct diyfp){frac, -1074};
	/* the interval of reals that round to v: halfway to each neighbour */
	struct diyfp plus = normalize((struct diyfp){(x.f << 1) + 1, x.e - 1});
	struct diyfp minus = x.f == 1ull << 52 ? (struct diyfp){(x.f << 2) - 1, x.e - 2}
					       : (struct diyfp){(x.f << 1) - 1, x.e - 1};
	minus.f <<= minus.e - plus.e;
	minus.e = plus.e;
	struct diyfp c = cached_power(plus.e, k);
	struct diyfp w = multiply(normalize(x), c), wp = multiply(plus, c), wm = multiply(minus, c);
	wm.f++;
	wp.f--;
	return digit_gen(w, wp, wp.f - wm.f, buf, k);
}

static size_t put_exponent(char *p, int e)
{
	size_t n = 0;
	p[n++] = 'e';
	p[n++] = e < 0 ? '-' : '+';
	unsigned u = (unsigned)(e < 0 ? -e : e);
	if (u >= 100)
		p[n++] = (char)('0' + u / 100);
	if (u >= 10)
		p[n++] = (char)('0' + u / 10 % 10);
	p[n++] = (char)('0' + u % 10);
	return n;
}

/* digits[0..len) * 10^k as text at out: plain up to 21 digits before the
 * point and 6 zeros after it, else with an exponent. */
static size_t layout(const char *digits, size_t len, int k, char *out)
{
	int kk = (int)len + k;   /* 10^(kk-1) <= v < 10^kk */
	size_t n = 0;
	if (k >= 0 && kk <= 21) {
		memcpy(out, digits, len);
		memset(out + len, '0', (size_t)k);
		return len + (size_t)k;
	}
	if (kk > 0 && kk <= 21) {
		memcpy(out, digits, (size_t)kk);
		out[kk] = '.';
		memcpy(out + kk + 1, digits + kk, len - (size_t)kk);
		return len + 1;
	}
	if (kk > -6 && kk <= 0) {
		out[n++] = '0';
		out[n++] = '.';
		memset(out + n, '0', (size_t)-kk);
		n += (size_t)-kk;
		memcpy(out + n, digits, len);
		return n + len;
	}
	out[n++] = digits[0];
	if (len > 1) {
		out[n++] = '.';
		memcpy(out + n, digits + 1, len - 1);
		n += len - 1;
	}
	return n + put_exponent(out + n, kk - 1);
}

size_t lk_dtoa(double v, char *buf)
{
	size_t n = 0;
	if (signbit(v)) {
		buf[n++] = '-';
		v = -v;
	}
	if (v == 0) {
		buf[n++] = '0';
		return n;
	}
	char digits[24];   /* 17 at most, as tested; room for more */
	int k = 0;
	size_t len = grisu2(v, digits, &k);
	return n + layout(digits, len, k, buf + n);
}
