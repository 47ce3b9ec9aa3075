/*
 * stacks.c - capture the allocating thread's call stack and intern it.
 *
 * Unwinding uses the fast unwinder (unwind.c: cached CFI rules, standard
 * frames only) and, where it steps aside, libunwind's unw_backtrace (DWARF
 * CFI with a per-thread cache of frame rules, no malloc); both give the
 * same frames. Frames inside libleakscope.so itself are dropped, so frame 0
 * is the code that called malloc.
 *
 * Where CFI ends before the stack does - Go's asmcgocall switches from the
 * goroutine stack to the system stack, GHC code has no unwind tables - the
 * capture continues from the frame pointer the unwinder recovered for its
 * last frame: Go keeps a frame-pointer chain, and in GHC code %rbp is the
 * Haskell stack pointer, whose top word is the return continuation. These
 * reads go through process_vm_readv, so a bad pointer costs an error, not a
 * crash. Stack ends where this finds nothing (_start, thread start) are
 * remembered, so ordinary C stacks pay for it once. The stack table is a
 * lock-free open-addressing hash in the shared region: a new stack's frames
 * and entry are written, then its id is published into a bucket with a
 * compare-and-swap; the collector reads entries by id.
 */
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <link.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "preload/preload.h"

#define TERMINAL_SLOTS 1024
static _Atomic uintptr_t terminal[TERMINAL_SLOTS];

static uintptr_t self_lo, self_hi;

static int find_self(struct dl_phdr_info *info, size_t size, void *base)
{
	if ((void *)info->dlpi_addr != base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			self_lo = info->dlpi_addr + ph->p_vaddr;
			self_hi = self_lo + ph->p_memsz;
		}
	}
	return 1;
}

LK_HIDDEN void lk_stack_init(void)
{
	Dl_info di;
	if (dladdr((void *)lk_stack_init, &di) && di.dli_fbase) {
		/* dli_fbase is the load address; dlpi_addr the bias: equal for .so */
		dl_iterate_phdr(find_self, di.dli_fbase);
	}
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	lk_unwind_init();
}

/* Two independent multiply chains halve the latency of hashing a deep
 * stack; the final mix spreads both into every bit. */
static uint64_t hash_frames(void *const *ips, int n)
{
	uint64_t a = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n, b = 0xc2b2ae3d27d4eb4fULL;
	int i = 0;
	for (; i + 1 < n; i += 2) {
		a = (a ^ (uint64_t)(uintptr_t)ips[i]) * 0xff51afd7ed558ccdULL;
		b = (b ^ (uint64_t)(uintptr_t)ips[i + 1]) * 0xc4ceb9fe1a85ec53ULL;
	}
	if (i < n)
		a = (a ^ (uint64_t)(uintptr_t)ips[i]) * 0xff51afd7ed558ccdULL;
	uint64_t h = a ^ (b >> 29) ^ (b << 35);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h ? h : 1;
}

/* Per-thread memory of recent stacks: a hit skips the shared table (and
 * its cache misses). Keyed by the 64-bit hash and depth, whose collision
 * odds (about n^2 / 2^65 for n distinct stacks) are far below anything
 * observable; the shared table compares frames in full. */
#define RECENT 256
static __thread struct recent {
	uint64_t hash;
	uint32_t depth, id;
} recent[RECENT];

static int same(const struct lk_stack_entry *e, uint64_t h, void *const *ips, int n)
{
	return e->hash == h && e->depth == (uint32_t)n &&
	       memcmp(lk_region.frames + e->first, ips, (size_t)n * sizeof(uint64_t)) == 0;
}

/* A new entry holding ips; 0 when the table is full. */
static uint32_t new_entry(uint64_t h, void *const *ips, int n)
{
	struct lk_shm_header *hdr = lk_region.hdr;
	uint32_t id = atomic_fetch_add(&hdr->stack_count, 1);
	uint64_t first = atomic_fetch_add(&hdr->frames_used, (uint64_t)n);
	if (id >= LK_STACK_ENTRIES || first > LK_FRAME_POOL - (uint64_t)n) {
		atomic_fetch_add(&hdr->stack_overflow, 1);
		return 0;
	}
	memcpy(lk_region.frames + first, ips, (size_t)n * sizeof(uint64_t));
	lk_modules_cover(lk_region.frames + first, n);
	lk_region.entries[id] = (struct lk_stack_entry){.hash = h, .depth = (uint32_t)n,
							.first = (uint32_t)first};
	return id;
}

static uint32_t intern_shared(void *const *ips, int n, uint64_t h);

static uint32_t intern(void *const *ips, int n)
{
	uint64_t h = hash_frames(ips, n);
	struct recent *r = &recent[h % RECENT];
	if (r->hash == h && r->depth == (uint32_t)n)
		return r->id;
	uint32_t id = intern_shared(ips, n, h);
	if (id)
		*r = (struct recent){.hash = h, .depth = (uint32_t)n, .id = id};
	return id;
}

static uint32_t intern_shared(void *const *ips, int n, uint64_t h)
{
	uint32_t mask = LK_STACK_BUCKETS - 1, mine = 0;
	for (uint32_t b = (uint32_t)h & mask, probes = 0; probes <= mask;
	     b = (b + 1) & mask, probes++) {
		uint32_t id = atomic_load_explicit(&lk_region.buckets[b], memory_order_acquire);
		if (id == 0) {
			if (!mine && !(mine = new_entry(h, ips, n)))
				return 0;
			if (atomic_compare_exchange_strong_explicit(
				    &lk_region.buckets[b], &id, mine,
				    memory_order_release, memory_order_acquire))
				return mine;
		}
		if (same(&lk_region.entries[id], h, ips, n))
			return id; /* (a prepared entry of ours, if any, is left unused) */
	}
	return 0;
}

static int safe_read(uintptr_t addr, uintptr_t *out)
{
	struct iovec local = {out, sizeof(*out)}, remote = {(void *)addr, sizeof(*out)};
	return syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0) ==
			       (long)sizeof(*out) ? 0 : -1;
}

/* %rbp in the frame whose pc is `pc`, at most `depth` frames up, or 0. */
static uintptr_t frame_pointer_at(uintptr_t pc, int depth)
{
	unw_context_t ctx;
	unw_cursor_t cur;
	unw_word_t ip = 0, bp = 0;
	if (unw_getcontext(&ctx) != 0 || unw_init_local(&cur, &ctx) != 0)
		return 0;
	for (int i = 0; i <= depth + 4; i++) {
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) == 0 && ip == pc) {
			unw_get_reg(&cur, UNW_X86_64_RBP, &bp);
			return (uintptr_t)bp;
		}
		if (unw_step(&cur) <= 0)
			break;
	}
	return 0;
}

/* Append frames found past the end of CFI; returns the new count. */
static int past_cfi(void **ips, int n, int max)
{
	uintptr_t end = (uintptr_t)ips[n - 1];
	_Atomic uintptr_t *slot = &terminal[(end >> 2) % TERMINAL_SLOTS];
	if (atomic_load_explicit(slot, memory_order_relaxed) == end)
		return n;
	uintptr_t bp = frame_pointer_at(end, n), w0, w1;
	int start = n;
	while (n < max && bp && !(bp & 7) && safe_read(bp, &w0) == 0) {
		if (safe_read(bp + 8, &w1) == 0 && w0 > bp && w0 - bp < (1u << 20) &&
		    lk_modules_contain(w1)) {
			ips[n++] = (void *)w1; /* a frame-pointer chain (Go) */
			bp = w0;
		} else if (n == start && lk_modules_contain(w0)) {
			/* GHC: the continuation's code starts at w0; +1 so that
			 * symbolizing "the call before the return" lands on it */
			ips[n++] = (void *)(w0 + 1);
			break;
		} else {
			break;
		}
	}
	if (n == start)
		atomic_store_explicit(slot, end, memory_order_relaxed);
	return n;
}

LK_HIDDEN uint32_t lk_stack_capture(void)
{
	void *ips[LK_MAX_FRAMES + 8];
	int n = lk_unwind_fast(ips, lk_max_frames + 8);
	if (n < 0)
		n = unw_backtrace(ips, lk_max_frames + 8);
	if (n > 0 && n < lk_max_frames + 8)
		n = past_cfi(ips, n, lk_max_frames + 8);
	int skip = 0;
	while (skip < n && (uintptr_t)ips[skip] >= self_lo && (uintptr_t)ips[skip] < self_hi)
		skip++;
	n -= skip;
	if (n > lk_max_frames)
		n = lk_max_frames;
	if (n <= 0)
		return 0;
	return intern(ips + skip, n);
}
