/*
 * api.c - the program API of include/leakscope.h, as the interposer exports
 * it: each call becomes one event in the ring (or, for disable/enable, a
 * per-thread counter that makes the wrappers mark what they record as
 * ignored). Marks and
 * snapshots put their text in a mark slot first (common/shm.h): no lock, no
 * allocation, no syscall, so they may be called from a signal handler.
 */
#include <stdint.h>

#include "preload/preload.h"

#define EXPORT __attribute__((visibility("default")))

static int ready(void)
{
	return atomic_load(&lk_state) == LK_READY;
}

EXPORT void leakscope_ignore_object(const void *p)
{
	if (p && ready())
		lk_ring_emit(LK_EV_IGNORE, (uintptr_t)p, 0, 0);
}

EXPORT void leakscope_disable_thread(void)
{
	lk_disabled++;
}

EXPORT void leakscope_enable_thread(void)
{
	if (lk_disabled > 0)
		lk_disabled--;
}

EXPORT void leakscope_root_add(const void *p, size_t n)
{
	if (p && n && ready())
		lk_ring_emit(LK_EV_ROOT_ADD, (uintptr_t)p, n, 0);
}

EXPORT void leakscope_root_remove(const void *p)
{
	if (p && ready())
		lk_ring_emit(LK_EV_ROOT_DEL, (uintptr_t)p, 0, 0);
}

/* Copy text into a free mark slot and publish the event naming it; a mark
 * whose slot the collector has not handed back yet is dropped, counted. */
static void emit_text(unsigned kind, const char *text)
{
	struct lk_shm_header *h = lk_region.hdr;
	uint64_t k = atomic_fetch_add_explicit(&h->mark_head, 1, memory_order_relaxed);
	struct lk_mark_slot *m = &lk_region.marks[k & (LK_MARK_SLOTS - 1)];
	uint64_t free_ = 0;
	if (!atomic_compare_exchange_strong_explicit(&m->seq, &free_, LK_MARK_BUSY,
						     memory_order_acquire, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&h->mark_dropped, 1, memory_order_relaxed);
		return;
	}
	uint32_t n = 0;
	while (text[n] && n < LK_MARK_TEXT - 1) {
		m->text[n] = text[n];
		n++;
	}
	m->text[n] = 0;
	m->len = n;
	atomic_store_explicit(&m->seq, LK_MARK_DONE(k), memory_order_release);
	lk_ring_emit(kind, k, 0, 0);
}

EXPORT void leakscope_add_mark(const char *text)
{
	if (text && ready())
		emit_text(LK_EV_MARK, text);
}

EXPORT void leakscope_add_snapshot(const char *name)
{
	if (name && ready())
		emit_text(LK_EV_SNAPSHOT, name);
}
