/*
 * unwind_test.c - the interposer's unwinders (src/preload/unwind.c, the
 * fast one; unwind_full.c, the careful one; cfi.c) against libunwind's
 * unw_backtrace, the reference: at the bottom of deep, varied stacks -
 * recursion through libc callbacks (qsort, bsearch, twalk,
 * dl_iterate_phdr), frames with and without frame pointers, alloca, a
 * large frame, early returns, a realigned stack (its CFA is a DWARF
 * expression), a thread, a signal handler, a signal frame in the middle
 * of a stack - the careful one must give the same frames everywhere, the
 * fast one too or step aside (-1). Past code without CFI both follow the
 * frame-pointer chain as libunwind does.
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
#include <ucontext.h>

#include "preload/preload.h"
#include "tap.h"

#define MAX 160

static int compared, fast, mismatched, full_mismatched, max_depth_seen;

/* The module table of the interposer, which past_cfi consults: here any
 * mapped object's code. */
int lk_modules_contain(uint64_t ip)
{
	Dl_info di;
	return dladdr((void *)(uintptr_t)ip, &di) != 0;
}

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
	void *a[MAX], *b[MAX], *c[MAX];
	int na = lk_unwind_fast(a, max);
	int nb = unw_backtrace(b, max);
	int nc = lk_unwind_full(c, max);
	compared++;
	if (nc > max_depth_seen)
		max_depth_seen = nc;
	if (nc != nb || (nc > 1 && memcmp(c + 1, b + 1, (size_t)(nc - 1) * sizeof(void *)) != 0)) {
		if (++full_mismatched <= 3) {
			printf("# mismatch (max %d): careful %d frames, libunwind %d\n", max, nc, nb);
			show("full", c, nc);
			show("unw ", b, nb);
		}
	}
	if (na < 0)
		return;
	fast++;
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

/* The stack realigned to 64 bytes: GCC gives the CFA as a DWARF
 * expression (the fast path steps aside). */
__attribute__((noinline, force_align_arg_pointer)) static void via_realign(int depth,
									    unsigned shape)
{
	volatile char buf[64] __attribute__((aligned(64)));
	buf[0] = (char)depth;
	NEXT(depth, shape);
	buf[1] = buf[0];
}

/* Code without CFI that keeps a frame pointer (as Go's does): both
 * unwinders go on along the chain, as libunwind does. */
void nocfi_call(void (*fn)(int, unsigned), int depth, unsigned shape);
__asm__(".text\n"
	"nocfi_call:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	mov %rdi, %rax\n"
	"	mov %esi, %edi\n"
	"	mov %edx, %esi\n"
	"	call *%rax\n"
	"	pop %rbp\n"
	"	ret\n");

static void walk_on(int depth, unsigned shape)
{
	NEXT(depth, shape);
}

__attribute__((noinline, optimize("no-omit-frame-pointer"))) static void
via_nocfi(int depth, unsigned shape)
{
	nocfi_call(walk_on, depth, shape);
	__asm__ volatile("" ::: "memory");
}

/* A signal frame in the middle of the stack: the handler goes on down. */
static int sig_depth;
static unsigned sig_shape;
static void on_usr2(int sig)
{
	NEXT(sig_depth, sig_shape);
}

__attribute__((noinline)) static void via_signal(int depth, unsigned shape)
{
	sig_depth = depth;
	sig_shape = shape;
	raise(SIGUSR2);
	__asm__ volatile("" ::: "memory");
}

/* A fault on the first instruction of a function: the frame the signal
 * interrupted must be looked up at its exact pc, which the byte before
 * (code without CFI here) would not give. The handler steps over ud2. */
void fault_at_entry(void);
__asm__(".text\n"
	"	nop\n"
	".globl fault_at_entry\n"
	"fault_at_entry:\n"
	".cfi_startproc\n"
	"	ud2\n"
	"	ret\n"
	".cfi_endproc\n");

static void on_ill(int sig, siginfo_t *si, void *uc)
{
	NEXT(sig_depth, sig_shape);
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP] += 2;
}

__attribute__((noinline)) static void via_fault(int depth, unsigned shape)
{
	sig_depth = depth;
	sig_shape = shape;
	fault_at_entry();
	__asm__ volatile("" ::: "memory");
}

static void walk(int depth, unsigned shape)
{
	if (depth <= 0) {
		bottom();
		return;
	}
	switch (shape % 12) {
	case 0: via_qsort(depth, shape); break;
	case 1: via_bsearch(depth, shape); break;
	case 2: via_twalk(depth, shape); break;
	case 3: via_phdr(depth, shape); break;
	case 4: via_alloca(depth, shape); break;
	case 5: via_big_frame(depth, shape); break;
	case 6: via_frame_pointer(depth, shape); break;
	case 7: via_realign(depth, shape); break;
	case 8: via_nocfi(depth, shape); break;
	case 9: via_signal(depth, shape); break;
	case 10: via_fault(depth, shape); break;
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

/* Which of the shapes' stacks pass through a frame of each kind. */
static int through(unsigned kind)
{
	int n = 0;
	for (unsigned s = 0; s < 64; s++) {
		unsigned shape = s * 2654435761u;
		for (int d = 1 + (int)(s % 19); d > 0; d--) {
			if (shape % 12 == kind) {
				n++;
				break;
			}
			shape = shape >> 3 | shape << 29;
		}
	}
	return n;
}

int main(void)
{
	lk_unwind_init();
	signal(SIGUSR2, on_usr2);
	struct sigaction ill = {.sa_sigaction = on_ill, .sa_flags = SA_SIGINFO | SA_NODEFER};
	sigaction(SIGILL, &ill, NULL);
	run_shapes();
	ok(compared == 64 * 5, "%d captures compared", compared);
	ok(through(7) > 5 && through(8) > 5 && through(9) > 5 && through(10) > 5,
	   "stacks pass through realigned (%d), CFI-less (%d), signal (%d) and faulting (%d) "
	   "frames", through(7), through(8), through(9), through(10));
	ok(full_mismatched == 0, "main thread: the careful unwinder: %d of %d differ from "
	   "unw_backtrace", full_mismatched, compared);
	ok(fast >= compared / 2 && fast < compared, "the fast path took %d of %d", fast,
	   compared);
	ok(mismatched == 0, "main thread: %d of %d differ from unw_backtrace", mismatched, fast);
	ok(max_depth_seen > 40, "stacks were deep: up to %d frames", max_depth_seen);

	compared = fast = mismatched = full_mismatched = 0;
	pthread_t t;
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);
	ok(fast > 0 && compared > 0, "thread: the fast path took %d of %d", fast, compared);
	ok(mismatched == 0 && full_mismatched == 0, "thread: %d differ, %d by the careful one",
	   mismatched, full_mismatched);

	compared = fast = mismatched = full_mismatched = 0;
	lk_unwind_forget(); /* as after dlclose: rules are recomputed */
	run_shapes();
	ok(mismatched == 0 && full_mismatched == 0, "after forgetting the rules: %d differ",
	   mismatched);

	compared = fast = mismatched = full_mismatched = 0;
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	ok(in_handler_compared == 5, "captured in a signal handler");
	ok(mismatched == 0 && full_mismatched == 0,
	   "signal handler: %d differ (%d by the fast path), %d by the careful one", mismatched,
	   fast, full_mismatched);
	ok(fast < 5, "the signal frame is left to the careful one (%d of 5 shallow captures "
	   "were fast)", fast);
	return tap_done();
}
