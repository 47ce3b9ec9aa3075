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

/* Reserve the heap's next stretch of address space at once and ask for
 * huge pages there. Call before the heap grows; a failure only costs
 * speed, so nothing is returned. */
void lk_hugeheap_enable(void);

#endif
