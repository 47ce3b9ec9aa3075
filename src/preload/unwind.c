/*
 * unwind.c - the fast path of stack capture: a tight loop over a
 * per-thread cache of unwind rules (return address -> CFA = %rsp/%rbp +
 * offset, saved %rbp), filled from .eh_frame by cfi.c on a miss.
 *
 * It produces exactly what libunwind's unw_backtrace produces on its own
 * fast path (the return address of each frame, the same end of stack)
 * and gives up (-1) on the first frame that is not a standard one - a
 * signal frame, code without CFI (Go, GHC), a DWARF expression - so the
 * caller then asks libunwind, whose answer is the reference.
 *
 * The cache is thread-local: capture is never reentrant within a thread
 * (lk_busy), so no atomics are needed. A dlclose() bumps a global
 * generation and each thread drops its rules when it sees a new one, since
 * other code may later be mapped at the same addresses. Memory is read
 * directly, as libunwind's fast trace does.
 */
#include <stdlib.h>
#include <string.h>

#include "preload/cfi.h"
#include "preload/preload.h"

#define RULE_BITS 12
#define RULES (1u << RULE_BITS)

struct slot {
	uintptr_t pc;
	struct lk_cfi_rule rule;
};

static __thread struct slot rules[RULES];
static __thread unsigned rules_gen;
static _Atomic unsigned generation = 1;
static int disabled;

LK_HIDDEN void lk_unwind_init(void)
{
	const char *how = getenv(LK_ENV_UNWIND);
	disabled = how && strcmp(how, "libunwind") == 0;
}

LK_HIDDEN void lk_unwind_forget(void)
{
	atomic_fetch_add_explicit(&generation, 1, memory_order_release);
}

static inline struct lk_cfi_rule rule_of(uintptr_t pc)
{
	struct slot *s = &rules[(pc * 0x9e3779b97f4a7c15ULL) >> (64 - RULE_BITS)];
	if (__builtin_expect(s->pc != pc, 0)) {
		s->rule = lk_cfi_rule_at(pc);
		s->pc = pc;
	}
	return s->rule;
}

/* Frames from this function's caller outward, as unw_backtrace would give
 * them from inside its caller: the number stored, or -1 for "ask
 * libunwind". Built with frame pointers, so our own frame is known. */
LK_HIDDEN __attribute__((noinline)) int lk_unwind_fast(void **ips, int max)
{
	if (disabled || max <= 0)
		return -1;
	unsigned gen = atomic_load_explicit(&generation, memory_order_acquire);
	if (__builtin_expect(rules_gen != gen, 0)) {
		memset(rules, 0, sizeof(rules));
		rules_gen = gen;
	}
	const uintptr_t *fp = __builtin_frame_address(0);
	uintptr_t rbp = fp[0], rsp = (uintptr_t)(fp + 2), ra = fp[1];
	int n = 0;
	ips[n++] = (void *)ra;
	while (n < max) {
		struct lk_cfi_rule r = rule_of(ra - 1); /* the call, not what follows */
		if (r.flags & (LK_CFI_SLOW | LK_CFI_LAST))
			return (r.flags & LK_CFI_SLOW) ? -1 : n;
		uintptr_t cfa = ((r.flags & LK_CFI_RBP_BASED) ? rbp : rsp) + (intptr_t)r.cfa_off;
		ra = *(const uintptr_t *)(cfa - 8);
		if (r.rbp_off)
			rbp = *(const uintptr_t *)(cfa + (intptr_t)r.rbp_off);
		rsp = cfa;
		if (ra < 0x4000)
			break;
		ips[n++] = (void *)ra;
	}
	return n;
}
