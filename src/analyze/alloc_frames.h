/*
 * alloc_frames.h - which frames of an allocation stack only allocate on
 * behalf of their caller: the C and C++ runtimes (malloc, operator new,
 * strdup ... in libc or libstdc++), the C++ standard library's
 * allocators and containers, the program's own wrappers (xmalloc and
 * the like), Rust's allocator and collections (alloc::, core::), cgo's
 * C.malloc trampolines and GHC's mallocBytes. The first
 * frame that is none of these is where the program allocated: what a
 * generated suppression names.
 */
#ifndef LK_ANALYZE_ALLOC_FRAMES_H
#define LK_ANALYZE_ALLOC_FRAMES_H

#include <stddef.h>

#include "analyze/timeline.h"

/* 1 if f only allocates for its caller. */
int lk_alloc_frame(const struct lk_frame_text *f);

/* The index of the first frame of f[0 .. n) that is not an allocation
 * wrapper and has a function name; n when there is none. */
size_t lk_alloc_caller(const struct lk_frame_text *f, size_t n);

#endif
