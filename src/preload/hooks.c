/*
 * hooks.c - the allocator entry points the target calls instead of its
 * allocator's. Each forwards to the real one and records the event:
 * allocations after the real call returned (their position in the ring then
 * follows any free of the same address), frees before the real free (the
 * address cannot be handed out again before the free is in the ring).
 *
 * lk_busy stops recursion (a signal handler allocating while we record): such nested allocations are forwarded unrecorded. Frees are
 * recorded even then: a lost free would be a false leak. errno is preserved.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "preload/preload.h"

LK_HIDDEN __thread int lk_busy;
LK_HIDDEN __thread int lk_disabled;

#define EXPORT __attribute__((visibility("default")))

/* Recording, and this thread's thread-locals can be touched. */
static inline int ready(void)
{
	return atomic_load_explicit(&lk_state, memory_order_relaxed) == LK_READY && lk_tls_ready();
}

static inline int tracking(void)
{
	int state = atomic_load_explicit(&lk_state, memory_order_relaxed);
	if (state == LK_READY && !lk_tls_ready())
		return 0;
	if (__builtin_expect(state == LK_UNINIT, 0) && !lk_busy) {
		lk_busy = 1;
		lk_start();
		lk_busy = 0;
		state = atomic_load(&lk_state);
	}
	return state == LK_READY && !lk_busy;
}

/* An allocation; between leakscope_disable() and _enable() it is kept on
 * purpose, as LeakSanitizer's __lsan_disable() does: never reported, its
 * content a root. */
static void record_alloc(void *p, size_t n)
{
	int e = errno;
	lk_ring_emit(LK_EV_ALLOC, (uintptr_t)p, n, lk_stack_capture());
	if (__builtin_expect(lk_disabled > 0, 0))
		lk_ring_emit(LK_EV_IGNORE, (uintptr_t)p, 0, 0);
	errno = e;
}

static void record(unsigned kind, void *p)
{
	int e = errno;
	lk_ring_emit(kind, (uintptr_t)p, 0, 0);
	errno = e;
}

/* Shared shape of the simple allocation wrappers. */
#define TRACKED(call, size)                           \
	do {                                          \
		if (!tracking())                      \
			return call;                  \
		lk_busy = 1;                          \
		void *p_ = call;                      \
		if (p_)                               \
			record_alloc(p_, size);       \
		lk_busy = 0;                          \
		return p_;                            \
	} while (0)

EXPORT void *malloc(size_t n)
{
	if (__builtin_expect(!lk_real.malloc, 0)) {
		lk_real_resolve();
		if (!lk_real.malloc)
			return lk_bootstrap_alloc(n);
	}
	TRACKED(lk_real.malloc(n), n);
}

/* Our malloc's own address (calls to "malloc" bind to whoever defines it
 * first: an executable's own malloc comes before us). */
LK_HIDDEN extern __typeof(malloc) lk_malloc_here __attribute__((alias("malloc"), malloc, nothrow, leaf));

EXPORT void free(void *p)
{
	if (!p || lk_bootstrap_owns(p))
		return;
	if (ready())
		record(LK_EV_FREE, p);
	if (__builtin_expect(!lk_real.free, 0))
		lk_real_resolve();
	lk_real.free(p);
}

EXPORT void *calloc(size_t n, size_t m)
{
	if (__builtin_expect(!lk_real.malloc, 0)) {
		lk_real_resolve();
		if (!lk_real.malloc) {
			size_t total;
			if (__builtin_mul_overflow(n, m, &total))
				return NULL;
			return lk_bootstrap_alloc(total);
		}
	}
	TRACKED(lk_real.calloc(n, m), n * m);
}

static void *realloc_from_pool(void *p, size_t n)
{
	void *q = malloc(n);
	if (q) {
		size_t old = lk_bootstrap_size(p);
		memcpy(q, p, old < n ? old : n);
	}
	return q;
}

EXPORT void *realloc(void *p, size_t n)
{
	if (__builtin_expect(!lk_real.malloc, 0)) {
		lk_real_resolve();
		if (!lk_real.malloc) {
			void *q = lk_bootstrap_alloc(n);
			if (q && p)
				memcpy(q, p, lk_bootstrap_size(p) < n ? lk_bootstrap_size(p) : n);
			return q;
		}
	}
	if (p && lk_bootstrap_owns(p))
		return realloc_from_pool(p, n);
	int track = tracking();
	if (track)
		lk_busy = 1;
	int ready_now = ready();
	if (p && ready_now)
		record(LK_EV_REALLOC_FREE, p);
	void *q = lk_real.realloc(p, n);
	if (p && ready_now && !q && n) /* failed: p is still the caller's */
		record(LK_EV_REALLOC_UNDO, p);
	if (track) {
		if (q)
			record_alloc(q, n);
		lk_busy = 0;
	}
	return q;
}

EXPORT void *reallocarray(void *p, size_t n, size_t m)
{
	size_t total;
	if (__builtin_mul_overflow(n, m, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, total);
}

EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
	if (!lk_real.malloc)
		lk_real_resolve();
	if (!tracking())
		return lk_real.posix_memalign(out, align, n);
	lk_busy = 1;
	int rc = lk_real.posix_memalign(out, align, n);
	if (rc == 0)
		record_alloc(*out, n);
	lk_busy = 0;
	return rc;
}

EXPORT void *aligned_alloc(size_t align, size_t n)
{
	if (!lk_real.malloc)
		lk_real_resolve();
	TRACKED(lk_real.aligned_alloc(align, n), n);
}

EXPORT void *memalign(size_t align, size_t n)
{
	if (!lk_real.malloc)
		lk_real_resolve();
	TRACKED(lk_real.memalign(align, n), n);
}

EXPORT void *valloc(size_t n)
{
	if (!lk_real.malloc)
		lk_real_resolve();
	TRACKED(lk_real.valloc(n), n);
}

EXPORT void *pvalloc(size_t n)
{
	if (!lk_real.malloc)
		lk_real_resolve();
	TRACKED(lk_real.pvalloc(n), n);
}

/* The entry points above by addresses of our own, for the GOT entries an
 * attach rewrites (gotpatch.c): "free" in this library binds to whoever
 * defines it first in the process, which is not us after a dlopen. */
#define HERE(name) LK_HIDDEN extern __typeof(name) lk_##name##_here __attribute__((alias(#name), copy(name)))
HERE(free);
HERE(calloc);
HERE(realloc);
HERE(reallocarray);
HERE(posix_memalign);
HERE(aligned_alloc);
HERE(memalign);
HERE(valloc);
HERE(pvalloc);
