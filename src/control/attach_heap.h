/*
 * attach_heap.h - the blocks a process had allocated before leakscope
 * looked at it, read from glibc's heap (collector/glibcheap.h) into its
 * session's live table, grouped by size (session.h, attach_sizes): for
 * `check PID` of a process leakscope did not start, and at `attach`, so
 * that frees of those blocks match and the scan classifies them.
 */
#ifndef LK_CONTROL_ATTACH_HEAP_H
#define LK_CONTROL_ATTACH_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "collector/glibcheap.h"
#include "collector/session.h"
#include "collector/stopall.h"

/* Put the blocks of h that are not live in s yet into s's live table;
 * *sizes (the caller's, freed with free() once s is gone) becomes s's
 * attach_sizes. Each block put is passed to s's sink as an allocation,
 * and its size added to *bytes. Returns the number of blocks put, or
 * -ENOMEM. */
long lk_attach_heap_put(struct lk_session *s, const struct lk_glibc_heap *h, uint64_t **sizes,
			uint64_t *bytes);

/* Read the heap of process pid while st holds every thread of it
 * stopped. Returns 0 with h filled, or a negative code with
 * lk_error_set() detail. */
int lk_attach_heap_read(pid_t pid, const struct lk_stopall *st, struct lk_glibc_heap *h);

struct lk_attach_heap_stats {
	size_t blocks;        /* put */
	uint64_t bytes;
	uint64_t pause_us;    /* the process's threads were stopped that long */
	unsigned tries;
};

/* At an attach: stop every thread of s's process, apply the events it
 * published, read its heap, put the blocks from before, resume it; again
 * a while later when the heap was caught changing. Returns 0, or a
 * negative code with lk_error_set() detail. */
int lk_attach_heap_add(struct lk_session *s, uint64_t **sizes, struct lk_attach_heap_stats *out);

#endif
