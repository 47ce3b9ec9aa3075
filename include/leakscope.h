/*
 * leakscope.h - optional program API of leakscope. Header only: include it,
 * link nothing. Under `leakscope run` the calls reach the interposer; in a
 * normal run the weak symbols are absent and every call does nothing.
 *
 *   leakscope_ignore(p)              p (a block from malloc & co.) is kept on
 *                                    purpose: never report or list it (not
 *                                    even with --show-reachable), and what
 *                                    it points to is reachable
 *   leakscope_disable() / _enable()  allocations of this thread between the
 *                                    two are kept on purpose, as if ignored
 *                                    one by one (nestable; LeakSanitizer's
 *                                    __lsan_disable / __lsan_enable)
 *   leakscope_register_root(p, n)    scan [p, p+n) as a root (memory that
 *                                    holds pointers but that leakscope would
 *                                    not scan, e.g. a custom mmap'ed arena)
 *   leakscope_unregister_root(p)
 *   leakscope_mark(text)             a marker: "what happened before and after
 *                                    this point"; in ring order with this
 *                                    process's allocations and frees
 *   leakscope_snapshot(name)         a named snapshot of the live heap at this
 *                                    point (e.g. "before", "after")
 *   leakscope_running()              1 under leakscope, else 0
 *
 * Marks and snapshots are cheap (no lock, no allocation, no system call:
 * callable from a signal handler), keep at most 495 bytes of text, and are
 * dropped (counted) when 256 are in flight that leakscope has not read yet.
 * `leakscope record` writes them into the trace; `leakscope run` lists them
 * in its JSON report.
 */
/*
 * SPDX-License-Identifier: MIT
 *
 * This header, unlike the rest of leakscope (GPL-3.0-or-later, LICENSE),
 * is under the MIT license, so that a program under any license may
 * include it:
 *
 * Copyright (c) 2026 The leakscope authors
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the
 * "Software"), to deal in the Software without restriction, including
 * without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to
 * permit persons to whom the Software is furnished to do so, subject to
 * the following conditions:
 *
 * The above copyright notice and this permission notice shall be included
 * in all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
 * OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 * MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
 * IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
 * CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
 * TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
 * SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
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
extern void leakscope_add_mark(const char *text) __attribute__((weak));
extern void leakscope_add_snapshot(const char *name) __attribute__((weak));

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

static inline void leakscope_mark(const char *text)
{
	if (leakscope_add_mark)
		leakscope_add_mark(text);
}

static inline void leakscope_snapshot(const char *name)
{
	if (leakscope_add_snapshot)
		leakscope_add_snapshot(name);
}

static inline int leakscope_running(void)
{
	return leakscope_ignore_object != 0;
}

#ifdef __cplusplus
}
#endif

#endif
