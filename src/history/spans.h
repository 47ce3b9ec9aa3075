/*
 * spans.h - for the HTML page's leak-candidate chart of any window: a
 * bounded, even sample of the blocks of a trace's window that outlived
 * the sample interval they were allocated in (history/cells.h), each with
 * its allocation time, size, site and the intervals of its allocation
 * and of its free. A window from sample i to sample j leaves unfreed the
 * blocks allocated in i+1..j and freed after j (or never): only such
 * blocks can be one of its candidates. The sample holds them all unless
 * more than 3/4 of LK_HSPANS_MAX of them spanned intervals of the clock
 * at once; then every other one goes and the stride doubles.
 *
 * Intervals are those of the cells' clock when the block was seen; when
 * the clock doubles they merge as the cells' do (lk_hspans_settle brings
 * them to the last generation, and drops the blocks whose allocation and
 * free fell into one interval).
 */
#ifndef LK_HISTORY_SPANS_H
#define LK_HISTORY_SPANS_H

#include <stdint.h>
#include <stddef.h>

#include "history/cells.h"

#define LK_HSPANS_MAX 8000u

struct lk_hspan {
	uint64_t t;            /* allocation time, ticks (its number until known) */
	uint64_t size;
	uint32_t site, gen;    /* gen: the clock's generation of a and f */
	uint16_t a, f;         /* f: LK_HCELL_NEVER when not freed in the window */
};

struct lk_hspans {
	struct lk_hspan *v;    /* LK_HSPANS_MAX */
	size_t n;
	uint64_t seen, stride; /* blocks offered; every stride-th is kept */
};

int lk_hspans_init(struct lk_hspans *s);
void lk_hspans_release(struct lk_hspans *s);

/* The block of allocation `number` (size, site), allocated at time t, was
 * freed now (freed) or is live as the window ends: kept when it outlived
 * its allocation's interval of the clock of c and the stride picks it. */
void lk_hspans_add(struct lk_hspans *s, const struct lk_hcells *c, uint64_t number, uint64_t t,
		   uint64_t size, uint32_t site, int freed);

/* After the read: intervals of c's last generation, the blocks that still
 * span two intervals, by allocation time. */
void lk_hspans_settle(struct lk_hspans *s, const struct lk_hcells *c);

#endif
