/*
 * unwind_test.c - the interposer's fast unwinder (src/preload/unwind.c,
 * cfi.c) against libunwind's unw_backtrace, the reference: at the bottom of
 * deep, varied stacks - recursion through libc callbacks (qsort, bsearch,
 * twalk, dl_iterate_phdr), frames with and without frame pointers, alloca,
 * a large frame, early returns, a thread, a signal handler - both must give
 * the same frames, or the fast path must step aside (-1).
 */
#define UNW_LOCAL_ONLY
#include <alloca.h>
#include <dlfcn.h>
#include <libunwind.h>
#include <link.h>
#include <pthread.h>
#include <search.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preload/preload.h"
#include "tap.h"

#define MAX 160

static int compared, fast, mismatched, max_depth_seen;

static void show(const char *tag, void *const *ips, int n)
{
	for (int i = 0; i < n; i++) {
		Dl_info di;
		const char *name = dladdr(ips[i], &di) && di.dli_sname ? di.dli_sname : "?";
		printf("#   %s %2d %p %s\n", tag, i, ips[i], name);
	}
}

/* Capture here with both unwinders, at most `max` frames, and compare.
 * Entry 0 is the call site inside this function, which differs. */
__attribute__((noinline)) static void compare_here(int max)
{
	void *a[MAX], *b[MAX];
	int na = lk_unwind_fast(a, max);
	int nb = unw_backtrace(b, max);
	compared++;
	if (na < 0)
		return;
	fast++;
	if (na > max_depth_seen)
		max_depth_seen = na;
	if (na != nb || (na > 1 && memcmp(a + 1, b + 1, (size_t)(na - 1) * sizeof(void *)) != 0)) {
		if (++mismatched <= 3) {
			printf("# mismatch (max %d): fast %d frames, libunwind %d\n", max, na, nb);
			show("fast", a, na);
			show("unw ", b, nb);
		}
	}
}

static void bottom(void)
{
	static const int maxes[] = {MAX, 64, 5, 2, 1};
	for (size_t i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++)
		compare_here(maxes[i]);
}

static void walk(int depth, unsigned shape);

/* Each way down picks the next one from the shape's low bits. */
#define NEXT(depth, shape) walk((depth) - 1, (shape) >> 3 | (shape) << 29)

static int qsort_depth;
static unsigned qsort_shape;
static int cmp_and_walk(const void *x, const void *y)
{
	if (qsort_depth >= 0) {
		int d = qsort_depth;
		qsort_depth = -1; /* only the first comparison goes down */
		NEXT(d, qsort_shape);
	}
	return *(const int *)x - *(const int *)y;
}

__attribute__((noinline)) static void via_qsort(int depth, unsigned shape)
{
	int v[8] = {5, 3, 7, 1, 8, 2, 6, 4};
	int saved_d = qsort_depth;
	unsigned saved_s = qsort_shape;
	qsort_depth = depth;
	qsort_shape = shape;
	qsort(v, 8, sizeof(int), cmp_and_walk);
	qsort_depth = saved_d;
	qsort_shape = saved_s;
}

static int bs_depth;
static unsigned bs_shape;
static int bs_cmp(const void *key, const void *elem)
{
	NEXT(bs_depth, bs_shape);
	return *(const int *)key - *(const int *)elem;
}

__attribute__((noinline)) static void via_bsearch(int depth, unsigned shape)
{
	static const int v[1] = {4};
	int key = 4;
	bs_depth = depth;
	bs_shape = shape;
	bsearch(&key, v, 1, sizeof(int), bs_cmp);
}

static int tw_depth;
static unsigned tw_shape;
static void tw_action(const void *node, VISIT which, int level)
{
	if (which == leaf || which == endorder) {
		if (tw_depth >= 0) {
			int d = tw_depth;
			tw_depth = -1;
			NEXT(d, tw_shape);
		}
	}
}

static int tw_cmp(const void *x, const void *y)
{
	return (int)((const char *)x - (const char *)y);
}

static void keep_key(void *key)
{
	(void)key; /* static keys: tdestroy frees only its nodes */
}

__attribute__((noinline)) static void via_twalk(int depth, unsigned shape)
{
	static const char keys[16];
	void *root = NULL;
	for (int i = 0; i < 16; i++)
		tsearch(keys + i, &root, tw_cmp);
	int saved_d = tw_depth;
	unsigned saved_s = tw_shape;
	tw_depth = depth;
	tw_shape = shape;
	twalk(root, tw_action);
	tw_depth = saved_d;
	tw_shape = saved_s;
	tdestroy(root, keep_key);
}

struct phdr_arg {
	int depth;
	unsigned shape;
	int done;
};

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *p)
{
	struct phdr_arg *a = p;
	if (!a->done) {
		a->done = 1;
		NEXT(a->depth, a->shape);
	}
	return 0;
}

__attribute__((noinline)) static void via_phdr(int depth, unsigned shape)
{
	struct phdr_arg a = {depth, shape, 0};
	dl_iterate_phdr(phdr_cb, &a);
}

__attribute__((noinline)) static void via_alloca(int depth, unsigned shape)
{
	volatile char *buf = alloca(16 + (size_t)(depth * 24 + (int)(shape & 0xf0)));
	buf[0] = 1;
	NEXT(depth, shape);
	buf[1] = buf[0];
}

__attribute__((noinline)) static void via_big_frame(int depth, unsigned shape)
{
	volatile char buf[70000];
	buf[depth] = 1;
	NEXT(depth, shape);
	buf[depth + 1] = buf[depth];
}

__attribute__((noinline, optimize("no-omit-frame-pointer"))) static void
via_frame_pointer(int depth, unsigned shape)
{
	NEXT(depth, shape);
	__asm__ volatile("" ::: "memory");
}

/* Several epilogues: GCC emits remember_state / restore_state. */
__attribute__((noinline)) static int via_early_returns(int depth, unsigned shape, int k)
{
	volatile int x = k;
	if (x == 1)
		return 1;
	if (x == 2) {
		NEXT(depth, shape);
		return x + 1;
	}
	NEXT(depth, shape);
	return x * 3;
}

static void walk(int depth, unsigned shape)
{
	if (depth <= 0) {
		bottom();
		return;
	}
	switch (shape & 7) {
	case 0: via_qsort(depth, shape); break;
	case 1: via_bsearch(depth, shape); break;
	case 2: via_twalk(depth, shape); break;
	case 3: via_phdr(depth, shape); break;
	case 4: via_alloca(depth, shape); break;
	case 5: via_big_frame(depth, shape); break;
	case 6: via_frame_pointer(depth, shape); break;
	default: via_early_returns(depth, shape, 2 + (int)(shape >> 3 & 1)); break;
	}
	__asm__ volatile("" ::: "memory"); /* no tail call */
}

static void run_shapes(void)
{
	for (unsigned s = 0; s < 64; s++)
		walk(1 + (int)(s % 19), s * 2654435761u);
}

static void *thread_main(void *arg)
{
	run_shapes();
	return NULL;
}

static int in_handler_compared;
static void on_signal(int sig)
{
	int before = compared;
	walk(4, 0x2c3);
	in_handler_compared = compared - before;
}

int main(void)
{
	lk_unwind_init();
	run_shapes();
	ok(compared == 64 * 5, "%d captures compared", compared);
	ok(fast == compared, "the fast path took all %d of them", fast);
	ok(mismatched == 0, "main thread: %d of %d differ from unw_backtrace", mismatched, fast);
	ok(max_depth_seen > 40, "stacks were deep: up to %d frames", max_depth_seen);

	compared = fast = mismatched = 0;
	pthread_t t;
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);
	ok(fast == compared && compared > 0, "thread: the fast path took %d of %d", fast, compared);
	ok(mismatched == 0, "thread: %d differ", mismatched);

	compared = fast = mismatched = 0;
	lk_unwind_forget(); /* as after dlclose: rules are recomputed */
	run_shapes();
	ok(mismatched == 0 && fast == compared, "after forgetting the rules: %d differ", mismatched);

	compared = fast = mismatched = 0;
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	ok(in_handler_compared == 5, "captured in a signal handler");
	ok(mismatched == 0, "signal handler: %d differ (%d by the fast path)", mismatched, fast);
	ok(fast < 5, "the signal frame is left to libunwind (%d of 5 shallow captures were fast)", fast);
	return tap_done();
}
