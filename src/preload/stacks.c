/*
 * stacks.c - capture the allocating thread's call stack and intern it.
 *
 * Unwinding uses the fast unwinder (unwind.c: cached CFI rules, standard
 * frames, and the frame-pointer chain past the end of CFI) and, where it
 * steps aside, the careful one (unwind_full.c: every rule of DWARF CFI,
 * signal frames); both give the same frames. Frames inside libleakscope.so
 * itself are dropped, so frame 0 is the code that called malloc, and
 * main's caller is libc's, as without us.
 *
 * The stack table is a lock-free open-addressing hash in the shared
 * region: a new stack's frames and entry are written, then its id is
 * published into a bucket with a compare-and-swap; the collector reads
 * entries by id.
 */
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "preload/preload.h"

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

LK_HIDDEN void lk_stack_forget_thread(void)
{
	memset(recent, 0, sizeof(recent));
}

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

/* A thread's recent ids are of the region they were made in: the key
 * mixes in the region's generation (a new attach makes a new region). */
static uint32_t intern(void *const *ips, int n)
{
	uint64_t h = hash_frames(ips, n);
	uint64_t key = h ^ atomic_load_explicit(&lk_region_gen, memory_order_relaxed);
	struct recent *r = &recent[key % RECENT];
	if (r->hash == key && r->depth == (uint32_t)n)
		return r->id;
	uint32_t id = intern_shared(ips, n, h);
	if (id)
		*r = (struct recent){.hash = key, .depth = (uint32_t)n, .id = id};
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

LK_HIDDEN uint32_t lk_stack_capture(void)
{
	void *ips[LK_MAX_FRAMES + 8];
	int n = lk_unwind_fast(ips, lk_max_frames + 8);
	if (n < 0)
		n = lk_unwind_full(ips, lk_max_frames + 8);
	/* our own frames: the hooks at the top, main's wrapper (exitpath.c)
	 * at the bottom */
	int kept = 0;
	for (int i = 0; i < n; i++)
		if ((uintptr_t)ips[i] < self_lo || (uintptr_t)ips[i] >= self_hi)
			ips[kept++] = ips[i];
	n = kept < lk_max_frames ? kept : lk_max_frames;
	if (n <= 0)
		return 0;
	return intern(ips, n);
}
