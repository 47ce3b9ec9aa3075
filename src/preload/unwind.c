/*
 * unwind.c - the fast path of stack capture: a tight loop over a cache of
 * unwind rules (return address -> CFA = %rsp/%rbp + offset, saved %rbp),
 * filled from .eh_frame by cfi.c on a miss.
 *
 * It produces exactly what the careful unwinder (unwind_full.c) produces
 * (the return address of each frame, the same end of stack) and gives up
 * (-1) on the first frame that is not a standard one - a signal frame, a
 * DWARF expression, a register other than %rsp or %rbp - so the caller
 * then asks the careful one. Where no FDE covers a frame (Go, GHC code) it
 * goes on as the careful one does, along the frame-pointer chain. Memory
 * of standard frames is read directly, as their CFI says it is there.
 *
 * The cache is one table for the process (threads run the same code),
 * mapped at start-up, never locked: a slot's key is the address plus a
 * generation tag, and its rule is valid while the key reads the same
 * before and after it. A writer first claims the slot (key = BUSY), so a
 * reader sees either the old pair, the new pair, or a miss. dlclose()
 * bumps the generation: rules of unmapped code then no longer match.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "preload/cfi.h"
#include "preload/preload.h"

#define RULE_BITS 15
#define RULES (1u << RULE_BITS)
#define BUSY 1u
#define GEN_SHIFT 48 /* user addresses on x86-64 fit in 47 bits */

struct slot {
	_Atomic uint64_t key;
	_Atomic uint64_t rule;
};

static struct slot *table;
static _Atomic uint64_t generation;

LK_HIDDEN void lk_unwind_init(void)
{
	const char *how = getenv(LK_ENV_UNWIND);
	if (table || (how && strcmp(how, "careful") == 0))
		return;
	void *p = mmap(NULL, RULES * sizeof(struct slot), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	table = p == MAP_FAILED ? NULL : p; /* no table: the careful one does it all */
}

LK_HIDDEN void lk_unwind_forget(void)
{
	atomic_fetch_add_explicit(&generation, 1, memory_order_relaxed);
}

static uint64_t pack(struct lk_cfi_rule r)
{
	return (uint32_t)r.cfa_off | (uint64_t)(uint16_t)r.rbp_off << 32 |
	       (uint64_t)r.flags << 48;
}

static struct lk_cfi_rule unpack(uint64_t v)
{
	return (struct lk_cfi_rule){.cfa_off = (int32_t)(uint32_t)v,
				    .rbp_off = (int16_t)(uint16_t)(v >> 32),
				    .flags = (uint8_t)(v >> 48)};
}

static __attribute__((noinline)) struct lk_cfi_rule fill(struct slot *s, uint64_t key, uintptr_t pc)
{
	struct lk_cfi_rule r = lk_cfi_rule_at(pc);
	uint64_t old = atomic_load_explicit(&s->key, memory_order_relaxed);
	if (old != BUSY && atomic_compare_exchange_strong_explicit(
				   &s->key, &old, BUSY, memory_order_acquire, memory_order_relaxed)) {
		atomic_store_explicit(&s->rule, pack(r), memory_order_release);
		atomic_store_explicit(&s->key, key, memory_order_release);
	}
	return r;
}

static inline struct lk_cfi_rule rule_of(uintptr_t pc, uint64_t tag)
{
	struct slot *s = &table[(pc * 0x9e3779b97f4a7c15ULL) >> (64 - RULE_BITS)];
	uint64_t key = pc | tag;
	if (__builtin_expect(atomic_load_explicit(&s->key, memory_order_acquire) == key, 1)) {
		uint64_t v = atomic_load_explicit(&s->rule, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->key, memory_order_relaxed) == key)
			return unpack(v);
	}
	return fill(s, key, pc);
}

/* Frames from this function's caller outward, as lk_unwind_full would give
 * them from inside its caller: the number stored, or -1 for "ask the
 * careful one". Built with frame pointers, so our own frame is known. */
LK_HIDDEN __attribute__((noinline)) int lk_unwind_fast(void **ips, int max)
{
	if (!table || max <= 0)
		return -1;
	uint64_t tag = atomic_load_explicit(&generation, memory_order_relaxed) << GEN_SHIFT;
	const uintptr_t *fp = __builtin_frame_address(0);
	uintptr_t rbp = fp[0], rsp = (uintptr_t)(fp + 2), ra = fp[1];
	int n = 0, chained = 0;
	ips[n++] = (void *)ra;
	while (n < max) {
		struct lk_cfi_rule r = rule_of(ra - 1, tag); /* the call, not what follows */
		if (__builtin_expect(r.flags & (LK_CFI_SLOW | LK_CFI_LAST | LK_CFI_NO_FDE), 0)) {
			if (!(r.flags & LK_CFI_NO_FDE))
				return (r.flags & LK_CFI_SLOW) ? -1 : n;
			uintptr_t bp = rbp; /* no CFI: the frame-pointer chain */
			if (!lk_unwind_fp_step(&bp, &ra)) {
				if (!chained) /* GHC code: %rbp is its stack pointer */
					n += lk_ghc_stack(rbp, ips + n, max - n);
				break;
			}
			rsp = rbp + 16;
			rbp = bp;
			chained = 1;
			ips[n++] = (void *)ra;
			continue;
		}
		chained = 0;
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
