/*
 * why.h - what keeps a block (--why): kept by the scan (collector/scan.c)
 * when a session asks for it, described by the report (analyze/leaks.c).
 * For each live block, what reached it first (analyze/reach.h,
 * LK_REACH_WHY); for each root range, what memory it is.
 */
#ifndef LK_COLLECTOR_WHY_H
#define LK_COLLECTOR_WHY_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/reach.h"

enum lk_root_kind {
	LK_ROOT_DATA,        /* a module's writable data: name is its path */
	LK_ROOT_STACK,       /* a live thread's stack: thread is its index */
	LK_ROOT_ANON,        /* other anonymous memory (a program's own arena, Go's heap) */
	LK_ROOT_GHC,         /* the live part of a shut-down GHC heap */
	LK_ROOT_REGISTERED,  /* registered with leakscope_register_root() */
	LK_ROOT_GOROUTINE,   /* a live goroutine's stack */
	LK_ROOT_GOHEAP,      /* a live object of Go's heap (an empty range) */
	LK_ROOT_INHERITED,   /* a block a fork child inherited (an empty range) */
};

struct lk_root_info {
	uint64_t lo, hi;
	uint8_t kind;        /* enum lk_root_kind */
	int thread;          /* LK_ROOT_STACK: 0 is the thread stopped at the end */
	char *name;          /* LK_ROOT_DATA, LK_ROOT_ANON: the mapping's name, or NULL */
};

struct lk_block_why {
	struct lk_reach_why via; /* LK_VIA_BLOCK: index is the live slot */
	uint64_t code;       /* LK_ROOT_STACK: a return address below the word, in
			      * the function whose frame holds it; 0 if none */
	struct lk_reach_why beyond; /* LK_ROOT_GOHEAP, _INHERITED: what keeps that node
				     * (a root, a register, or none known) */
	uint64_t beyond_code;
};

struct lk_why {
	struct lk_root_info *roots;
	size_t n_roots;
	struct lk_block_why *blocks; /* by live slot */
	size_t n_general_values;     /* extra values below this are general
				      * registers, LK_GENERAL_REGS per thread */
};

void lk_why_free(struct lk_why *w);

#endif
