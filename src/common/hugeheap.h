/*
 * hugeheap.h - the heap of an analysis command in transparent huge pages.
 *
 * A report or an eventlog fills tens of megabytes of fresh heap (the sites,
 * the rows of a profile, the drawn values). The kernel zeroes and maps
 * fresh memory one 4 KiB page fault at a time; where transparent huge
 * pages are only given on request (the default "madvise" mode), a 2 MiB
 * page is one fault, several times cheaper per byte (docs/performance.md).
 * Only for the analysis commands: not for a target, not for a collector
 * that runs as long as its target.
 */
#ifndef LK_COMMON_HUGEHEAP_H
#define LK_COMMON_HUGEHEAP_H

#include <stddef.h>

/* Reserve the heap's next stretch of address space at once and ask for
 * huge pages there. Call before the heap grows; a failure only costs
 * speed, so nothing is returned. */
void lk_hugeheap_enable(void);

/* Whether lk_hugeheap_enable() may pad the heap: no limit of address
 * space or data (ulimit -v, -d), no strict overcommit. */
int lk_hugeheap_allowed(void);

/* Zeroed memory for a large structure touched sparsely (tables indexed by
 * a 16-bit type, buffers for the longest string): pages of its own, made
 * only where touched. From the padded heap, calloc would clear (and so
 * make) every page. NULL when out of memory; free with lk_sparse_free. */
void *lk_sparse_alloc(size_t size);
void lk_sparse_free(void *p, size_t size);

#endif
