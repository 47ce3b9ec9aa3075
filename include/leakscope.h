/*
 * leakscope.h - optional program API of leakscope. Header only: include it,
 * link nothing. Under `leakscope run` the calls reach the interposer; in a
 * normal run the weak symbols are absent and every call does nothing.
 *
 *   leakscope_ignore(p)              p (a block from malloc & co.) is kept on
 *                                    purpose: never report it, and what it
 *                                    points to is reachable
 *   leakscope_disable() / _enable()  allocations of this thread between the
 *                                    two are not tracked (nestable)
 *   leakscope_register_root(p, n)    scan [p, p+n) as a root (memory that
 *                                    holds pointers but that leakscope would
 *                                    not scan, e.g. a custom mmap'ed arena)
 *   leakscope_unregister_root(p)
 *   leakscope_running()              1 under leakscope, else 0
 */
#ifndef LEAKSCOPE_H
#define LEAKSCOPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

extern void leakscope_ignore_object(const void *p) __attribute__((weak));
extern void leakscope_disable_thread(void) __attribute__((weak));
extern void leakscope_enable_thread(void) __attribute__((weak));
extern void leakscope_root_add(const void *p, size_t n) __attribute__((weak));
extern void leakscope_root_remove(const void *p) __attribute__((weak));

static inline void leakscope_ignore(const void *p)
{
	if (leakscope_ignore_object)
		leakscope_ignore_object(p);
}

static inline void leakscope_disable(void)
{
	if (leakscope_disable_thread)
		leakscope_disable_thread();
}

static inline void leakscope_enable(void)
{
	if (leakscope_enable_thread)
		leakscope_enable_thread();
}

static inline void leakscope_register_root(const void *p, size_t n)
{
	if (leakscope_root_add)
		leakscope_root_add(p, n);
}

static inline void leakscope_unregister_root(const void *p)
{
	if (leakscope_root_remove)
		leakscope_root_remove(p);
}

static inline int leakscope_running(void)
{
	return leakscope_ignore_object != 0;
}

#ifdef __cplusplus
}
#endif

#endif
