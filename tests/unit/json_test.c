/*
 * json_test.c - lk_json_fixed: integers and decimals rounded to a number
 * of places, without binary noise, against printf; lk_json_fixed_array,
 * lk_json_ident and lk_json_uint.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "tap.h"

static char *fixed_text(double v, int decimals)
{
	static char buf[64];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	lk_json_fixed(f, v, decimals);
	fclose(f);
	return buf;
}

/* printf's "%.*f" of v without trailing zeros (and "0" for "-0"). */
static void printf_fixed(char *want, size_t size, double v, int decimals)
{
	snprintf(want, size, "%.*f", decimals, v);
	char *dot = strchr(want, '.');
	if (dot) {
		char *end = want + strlen(want);
		while (end > dot + 1 && end[-1] == '0')
			*--end = 0;
		if (end == dot + 1)
			*dot = 0;
	}
	if (strcmp(want, "-0") == 0)
		strcpy(want, "0");
}

int main(void)
{
	static const struct { double v; int decimals; const char *text; } cases[] = {
		{0, 0, "0"}, {-0.0, 3, "0"}, {42, 0, "42"}, {-7, 4, "-7"},
		{1e15, 0, "1000000000000000"}, {0.1 + 0.2, 4, "0.3"}, {2.5, 3, "2.5"},
		{0.00042100000000000004 * 1e9, 0, "421000"}, {1.0 / 3, 4, "0.3333"},
		{-0.016, 3, "-0.016"}, {1500.5, 0, "1500"}, {1501.5, 0, "1502"}, {0.97314, 4, "0.9731"},
		{0.99996, 4, "1"}, {-0.00004, 4, "0"}, {12.345678901, 9, "12.345678901"},
		{1e22, 0, "1e+22"}, {123456789.125, 3, "123456789.125"},
		{1e16 + 0.25, 4, "10000000000000000"}, {-2.5e17, 3, "-250000000000000000"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *t = fixed_text(cases[i].v, cases[i].decimals);
		ok(strcmp(t, cases[i].text) == 0, "%.17g to %d places is '%s' (got '%s')",
		   cases[i].v, cases[i].decimals, cases[i].text, t);
	}
	ok(strcmp(fixed_text(0.0 / 0.0, 3), "null") == 0, "NaN is null");
	ok(strcmp(fixed_text(1.0 / 0.0, 0), "null") == 0, "infinity is null");

	/* integers of every length, at the edges where a digit is added */
	int exact = 1;
	for (double p = 1; p < 9e15 && exact; p *= 10) {
		const double near[] = {p - 1, p, p + 1, -p, 9 * p};
		for (size_t i = 0; i < sizeof(near) / sizeof(near[0]) && exact; i++) {
			char want[64];
			snprintf(want, sizeof(want), "%.0f", near[i]);
			exact = strcmp(fixed_text(near[i], 0), want) == 0;
			if (!exact)
				printf("# %s written as %s\n", want, fixed_text(near[i], 0));
		}
	}
	ok(exact, "integers of 1 to 16 digits are written exactly");

	/* decimals of any size to 0..9 places: printf's rounding, or within
	 * half a place and the error of scaling v (16 and more digits) */
	srand(3);
	int same = 1;
	for (int i = 0; i < 100000 && same; i++) {
		int d = i % 10;
		double v = (double)rand() / (double)(rand() | 1) * (i % 2 ? 1 : -1) * (i % 7 ? 1 : 1e6);
		char want[64];
		printf_fixed(want, sizeof(want), v, d);
		const char *t = fixed_text(v, d);
		char *end;
		double back = strtod(t, &end);
		same = *end == 0 && (strcmp(t, want) == 0 || fabs(back - v) <= 0.5 * pow(10, -d) + fabs(v) * 4e-16);
		if (!same)
			printf("# %.17g to %d places: %s, printf %s\n", v, d, t, want);
	}
	ok(same, "100000 decimals are v rounded to their places");

	/* seconds from nanoseconds read back as the nanoseconds */
	int ns_same = 1;
	double secs[1000];
	uint64_t nss[1000];
	for (int i = 0; i < 1000; i++) {
		nss[i] = ((uint64_t)rand() << 20 | (uint64_t)rand()) % 2000000000000000ull;
		secs[i] = (double)nss[i] / 1e9;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	lk_json_fixed_array(f, secs, 1000, LK_JSON_NS_PER_S, 0);
	fclose(f);
	char *q = buf + 1;
	for (int i = 0; i < 1000 && ns_same; i++) {
		char *end;
		ns_same = strtoull(q, &end, 10) == nss[i] && (*end == ',' || *end == ']');
		q = end + 1;
	}
	ok(ns_same && buf[0] == '[' && buf[len - 1] == ']', "1000 seconds as their nanoseconds");
	free(buf);

	/* unsigned integers at every length's edges, with and without a
	 * separator before them */
	int uints = 1;
	for (uint64_t p = 1, i = 0; i < 20 && uints; i++, p *= 10) {
		const uint64_t near[] = {p - 1, p, p + 1, UINT64_MAX - p};
		for (size_t j = 0; j < sizeof(near) / sizeof(near[0]) && uints; j++) {
			char want[32], got[32];
			snprintf(want, sizeof(want), "%s%llu", j % 2 ? "," : "",
				 (unsigned long long)near[j]);
			FILE *u = fmemopen(got, sizeof(got), "w");
			lk_json_uint(u, j % 2 ? ',' : 0, near[j]);
			fclose(u);
			uints = strcmp(got, want) == 0;
			if (!uints)
				printf("# %s written as %s\n", want, got);
		}
	}
	ok(uints, "unsigned integers of 1 to 20 digits, after a separator or not");

	/* keys as identifiers */
	char got[64];
	f = fmemopen(got, sizeof(got), "w");
	lk_json_ident(f, "source location");
	putc(' ', f);
	lk_json_ident(f, "closure-type \xc3\xa9");
	fclose(f);
	ok(strcmp(got, "\"source_location\" \"closure_type___\"") == 0, "identifiers (got %s)", got);
	return tap_done();
}
