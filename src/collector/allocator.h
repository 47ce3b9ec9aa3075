/*
 * allocator.h - which malloc a running process uses, for reading its heap
 * from outside (collector/glibcheap.h): only glibc's can be read. The
 * others are named: jemalloc, tcmalloc, mimalloc by their libraries, any
 * other by the object that defines `malloc` before libc does (the
 * executable, a preloaded or linked library).
 */
#ifndef LK_COLLECTOR_ALLOCATOR_H
#define LK_COLLECTOR_ALLOCATOR_H

#include <sys/types.h>

#define LK_ALLOCATOR_RECORDED 1 /* leakscope's interposer is loaded */

/* 0 when pid's malloc is glibc's; LK_ALLOCATOR_RECORDED when leakscope's
 * interposer is loaded (a recording, of another user or one that ended,
 * has it: the caller says so); else a negative code with lk_error_set()
 * detail naming the allocator. */
int lk_allocator_check(pid_t pid);

#endif
