/*
 * json_test.c - lk_json_number: integers and nanosecond decimals written
 * as such, the rest in the shortest text (lk_dtoa, tested on its own in
 * dtoa_test.c); every number reads back (strtod) as the same double.
 * lk_json_uint and lk_json_number_fields against printf.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "tap.h"

static char *number_text(double v)
{
	static char buf[64];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	lk_json_number(f, v);
	fclose(f);
	return buf;
}

int main(void)
{
	static const struct { double v; const char *text; } cases[] = {
		{0, "0"}, {-0.0, "0"}, {42, "42"}, {-7, "-7"}, {1e15, "1000000000000000"},
		{0.1, "0.1"}, {2.5, "2.5"}, {12.345678901, "12.345678901"}, {-0.016, "-0.016"},
		{1500.5, "1500.5"}, {0.000000001, "0.000000001"}, {1.0 / 3, "0.3333333333333333"},
		{1e20, "100000000000000000000"}, {1e22, "1e+22"}, {1e-12, "1e-12"},
		{-2.5e-300, "-2.5e-300"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *t = number_text(cases[i].v);
		ok(strcmp(t, cases[i].text) == 0, "%.17g is written '%s' (got '%s')", cases[i].v,
		   cases[i].text, t);
	}
	ok(strcmp(number_text(0.0 / 0.0), "null") == 0, "NaN is null");

	/* integers of every length, at the edges where a digit is added */
	int exact = 1;
	for (double p = 1; p < 9e15 && exact; p *= 10) {
		const double near[] = {p - 1, p, p + 1, -p, 9 * p};
		for (size_t i = 0; i < sizeof(near) / sizeof(near[0]) && exact; i++) {
			char want[64];
			snprintf(want, sizeof(want), "%.0f", near[i]);
			exact = strcmp(number_text(near[i]), want) == 0;
			if (!exact)
				printf("# %s written as %s\n", want, number_text(near[i]));
		}
	}
	ok(exact, "integers of 1 to 16 digits are written exactly");

	/* times from nanoseconds, means of a few of them, values of any size */
	srand(3);
	int same = 1;
	for (int i = 0; i < 100000 && same; i++) {
		uint64_t ns = ((uint64_t)rand() << 20 | (uint64_t)rand()) % 9000000000000000ull;
		double v = i % 3 == 0 ? (double)ns / 1e9
			 : i % 3 == 1 ? ((double)ns / 1e9 + (double)(ns / 3) / 1e9) / 2
				      : (double)rand() / 7.0 * (i % 2 ? 1 : -1);
		const char *t = number_text(v);
		same = strtod(t, NULL) == v;
		if (!same)
			printf("# %.17g written as %s\n", v, t);
	}
	ok(same, "100000 numbers read back as the same double");

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

	/* an object of numbers: longest keys, each number as alone, one
	 * buffer flushed on the way (60 fields) */
	char key[33], want[8192], got[8192];
	memset(key, 'k', 32);
	key[32] = 0;
	const char *keys[60];
	double vals[60];
	size_t w = (size_t)snprintf(want, sizeof(want), "{");
	for (int i = 0; i < 60; i++) {
		keys[i] = i % 2 ? key : "peak";
		vals[i] = i == 7 ? 0.0 / 0.0 : i * -1234.567e10 / 3;
		w += (size_t)snprintf(want + w, sizeof(want) - w, "%s\"%s\":%s", i ? "," : "",
				      keys[i], number_text(vals[i]));
	}
	snprintf(want + w, sizeof(want) - w, "}");
	FILE *f = fmemopen(got, sizeof(got), "w");
	lk_json_number_fields(f, keys, vals, 60);
	fclose(f);
	ok(strcmp(got, want) == 0, "number fields as the numbers alone (got %.60s...)", got);
	return tap_done();
}
