/*
 * goheap.h - a Go program's heap as a graph, not a root (collector/scan.c).
 *
 * Go's heap lives in arenas of anonymous memory. Scanned whole as a root,
 * its dead objects (what Go's collector has not freed yet) and free slots
 * keep stale copies of pointers, and a C block whose pointer a Go program
 * once passed around (fmt.Printf's arguments) looks still reachable. So,
 * where the layout of the runtime is understood:
 *   - the arenas are not roots, nor the runtime's span descriptors (each
 *     holds its span's start: the address of its first object);
 *   - every allocated object of a span whose objects may hold pointers is
 *     a node of the reachability graph, scanned only once it is reached
 *     (objects of "noscan" spans hold no pointer: they are left out);
 *   - the stacks of live goroutines are roots (from their saved stack
 *     pointer up; whole for one running on a thread, unless a thread's
 *     stack pointer lies on it); the binary's data and bss, the threads'
 *     stacks and registers are roots as for any program.
 * A C block held by a live Go object stays reachable; one referenced only
 * from dead Go objects or free slots is lost. Objects are scanned whole,
 * conservatively (a program may keep a C pointer in a uintptr): a runtime
 * word that is an address but no reference (a P's page cache base) keeps
 * the object at that address as if it were one.
 *
 * The layout is read from the target's memory, where the binary's symbols
 * and DWARF say it is: runtime.mheap_ (allspans, allArenas), runtime.mspan
 * (startAddr, npages, nelems, elemsize, freeIndexForScan or freeindex,
 * allocBits, spanclass, state), runtime.allgs and runtime.g (stack,
 * sched.sp, atomicstatus), by name, so that a later Go that moves fields
 * is read as well; arenas are 64 MiB at arenaBaseOffset (amd64). Anything
 * missing or out of bounds (a stripped binary, a layout that changed
 * otherwise) makes lk_go_heap_open say why, and the heap stays a root.
 */
#ifndef LK_COLLECTOR_GOHEAP_H
#define LK_COLLECTOR_GOHEAP_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/reach.h"
#include "collector/live.h"

struct lk_go_heap {
	struct lk_reach_root *arenas;   /* sorted, disjoint */
	size_t n_arenas;
	struct lk_reach_root *skip;     /* what is no root: the arenas and the
					 * span descriptors, sorted, merged */
	size_t n_skip;
	struct lk_block *objects;       /* allocated objects of scan spans, sorted */
	size_t n_objects;
	struct lk_reach_root *stacks;   /* live goroutines' stacks */
	size_t n_stacks;
};

/* The heap of the Go program exe (loaded at bias) stopped with its memory
 * at mem_fd, whose threads' stack pointers are sps: 0 and *out; or 0 and
 * NULL in *out with *why_not saying why it stays a root (NULL: not a Go
 * program); or -ENOMEM. */
int lk_go_heap_open(const char *exe, uint64_t bias, int mem_fd, const uint64_t *sps,
		    size_t n_sps, struct lk_go_heap **out, const char **why_not);

/* The parts of [lo, hi) in the heap's arenas or span descriptors are not
 * roots: call add(ctx, a, b) for each piece outside them. */
int lk_go_heap_outside(const struct lk_go_heap *h, uint64_t lo, uint64_t hi,
		       int (*add)(void *ctx, uint64_t a, uint64_t b), void *ctx);

/* 1 if [lo, hi) meets an arena or a span descriptor. */
int lk_go_heap_meets(const struct lk_go_heap *h, uint64_t lo, uint64_t hi);

void lk_go_heap_free(struct lk_go_heap *h);

#endif
