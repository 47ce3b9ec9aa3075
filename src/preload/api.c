/*
 * api.c - the program API of include/leakscope.h, as the interposer exports
 * it: each call becomes one event in the ring (or, for disable/enable, a
 * per-thread counter that makes the wrappers forward unrecorded).
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
	lk_busy++;
}

EXPORT void leakscope_enable_thread(void)
{
	if (lk_busy > 0)
		lk_busy--;
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
