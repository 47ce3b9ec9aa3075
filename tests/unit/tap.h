/*
 * tap.h - the smallest TAP helpers for unit tests: ok(cond, name) prints
 * "ok N - name" or "not ok N - name"; tap_done() prints the plan and gives
 * the exit status (0 when every check passed).
 */
#ifndef LK_TESTS_TAP_H
#define LK_TESTS_TAP_H

#include <math.h>
#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...) do { \
	tap_n++; \
	if (cond) { printf("ok %d - ", tap_n); } \
	else { tap_failed++; printf("not ok %d - %s:%d: ", tap_n, __FILE__, __LINE__); } \
	printf(__VA_ARGS__); putchar('\n'); \
} while (0)

#define near(a, b) (fabs((double)(a) - (double)(b)) <= 1e-9 * (1 + fabs((double)(b))))

static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

#endif
