/*
 * cells.h - per-site block counts by the sample interval of their
 * allocation and of their free: the data that lets the HTML page redo a
 * window's analysis (allocations, frees, live and not-freed bytes) for any
 * two sample times, exactly. The same table keyed by size class instead
 * of site redoes the window's size histogram.
 *
 * Interval j of the timeline clock (history/sampler.h) holds the events at
 * times in ((j-1)D, jD] after the window's start; interval 0 the events up
 * to the start (blocks allocated before it). A cell is (site, a, f): the
 * blocks of the site allocated in interval a and freed in interval f
 * (LK_HCELL_NEVER: live when the window ended), their count and bytes,
 * and how many of them were temporary (freed by the thread that allocated
 * them, before it allocated again: history.h);
 * a block allocated before the window started has a = LK_HCELL_BEFORE.
 * When the clock doubles D, intervals 2k-1 and 2k become interval k and
 * the cells merge. Memory follows the distinct cells, never the events.
 */
#ifndef LK_HISTORY_CELLS_H
#define LK_HISTORY_CELLS_H

#include <stdint.h>
#include <stddef.h>

#include "history/sampler.h"

#define LK_HCELL_NEVER 0xffffu    /* f: not freed when the window ended */
#define LK_HCELL_BEFORE 0xfffeu   /* a: allocated before the window started */

struct lk_hcell {
	uint32_t site;         /* UINT32_MAX: an empty slot */
	uint16_t a, f;
	uint64_t count, bytes, temps;
};

struct lk_hcells {
	struct lk_hcell *slots;    /* open addressing; sorted by lk_hcells_sort */
	size_t cap, n;
	uint64_t bound[LK_SAMPLER_POINTS + 2];  /* first allocation number of each
						 * interval; bound[0]: of the window */
	uint32_t due, gen;         /* the clock as last seen: the current interval */
};

int lk_hcells_init(struct lk_hcells *c);
void lk_hcells_release(struct lk_hcells *c);

/* The window starts: allocation numbers from `first` on are in it. */
void lk_hcells_start(struct lk_hcells *c, uint64_t first);

/* The clock moved (sampler s); next is the number of the next allocation.
 * 0 or -ENOMEM. */
int lk_hcells_clock(struct lk_hcells *c, const struct lk_sampler *s, uint64_t next);

/* The block of allocation `number` (site, size) was freed now (freed; a
 * temporary allocation when temporary) or is live as the window ends
 * (!freed). 0 or -ENOMEM. */
int lk_hcells_add(struct lk_hcells *c, uint32_t site, uint64_t number, uint64_t size, int freed,
		  int temporary);

/* The interval of the clock as last seen that allocation `number` is in
 * (LK_HCELL_BEFORE: before the window). */
uint16_t lk_hcells_interval(const struct lk_hcells *c, uint64_t number);

/* Interval k once the clock doubles (intervals 2k-1 and 2k become k). */
static inline uint16_t lk_hcells_merged(uint16_t k)
{
	return (uint16_t)((k + 1u) >> 1);
}

/* After the read: the n cells first in slots, by site, a, f. */
void lk_hcells_sort(struct lk_hcells *c);

#endif
