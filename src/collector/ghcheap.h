/*
 * ghcheap.h - which parts of a GHC program's heap hold live Haskell objects
 * when the process is stopped at its end, so that only those parts are
 * roots of the reachability scan (collector/scan.c).
 *
 * Without this, the whole GHC heap (its megablocks, anonymous mappings) is
 * a root, and dead copies of a `Ptr` left in it (garbage closures in the
 * allocation area) keep a leaked mallocBytes block "still reachable".
 *
 * When the runtime has shut down (hs_exit: sched_state is
 * SCHED_SHUTTING_DOWN), its last, major garbage collection has run after
 * all Haskell threads were deleted, and no Haskell code ran since. Then:
 *   - every object that collection kept was copied into a block it flagged
 *     evacuated (what StablePtrs kept among them; large, pinned, compact
 *     or non-moving objects stay in blocks flagged so): the used parts of
 *     flagged blocks are roots (a non-moving or compact block whole);
 *   - the nursery (generation 0 blocks with no flag) and the free blocks
 *     hold only what collections left behind: not roots, except
 *   - the objects reachable from a CAF (a static closure of the program that
 *     was evaluated: an IND_STATIC in .data), which the last collection
 *     dropped as no code would run again, but which is a global of the
 *     program like a C global: traced precisely from the CAF through the
 *     dead blocks with the closures' info tables (following the forwarding
 *     pointer a collection leaves where it moved an object from); an object
 *     whose type the tracer cannot lay out makes its whole block a root, and
 *     so on transitively (never fewer roots); a word that is no closure
 *     (memory reused since a collection dropped the CAF during the run: no
 *     info table there, or a stack frame's or a static closure's) is not
 *     followed;
 *   - a Handle's buffers (the byte arrays that GHC.IO.Buffer's Buffer
 *     records and a Handle's spare buffer list name) hold the program's
 *     input and output, never a reference: they are no roots. A buffer is allocated without
 *     being cleared, and flushing it does not clear it either, so it can
 *     hold stale copies of pointers from the memory it reused, or the bytes
 *     of an address the program printed.
 * In every other case (the runtime still running - `leakscope check` - or
 * ended without hs_exit, a dynamically linked runtime, a position-
 * independent executable, a GHC whose closure types differ from 9.0's, a
 * heap where a mark-compact collection ran) the whole heap stays a root.
 *
 * What this cannot see: a CAF the program stopped referring to is dropped
 * by a collection during the run, and once its memory is reused, what only
 * it held is lost (as it is for GHC). Other live byte arrays (ARR_WORDS)
 * are scanned whole, stale words in their unused part included, and so are
 * the dead objects of a pinned block that one live object keeps.
 */
#ifndef LK_COLLECTOR_GHCHEAP_H
#define LK_COLLECTOR_GHCHEAP_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/reach.h"

struct lk_ghc_heap;

/* Look at the program exe (loaded at bias: 0 for the non-PIE executables
 * GHC links) through mem_fd. Returns 0 and
 * *out, or NULL in *out when the program is not a GHC program whose runtime
 * has shut down (then nothing changes); negative on out of memory. */
int lk_ghc_heap_open(const char *exe, uint64_t bias, int mem_fd, struct lk_ghc_heap **out);

/* 1 if [lo, hi) is inside the GHC heap: the caller must not take it as a
 * root but pass it to lk_ghc_heap_add_mapping. */
int lk_ghc_heap_covers(const struct lk_ghc_heap *h, uint64_t lo, uint64_t hi);

/* A mapping of the heap: its live blocks become roots, its nursery blocks
 * are remembered for the tracer. */
int lk_ghc_heap_add_mapping(struct lk_ghc_heap *h, uint64_t lo, uint64_t hi);

/* A writable mapping of the program's executable: its CAFs are looked for. */
int lk_ghc_heap_add_static(struct lk_ghc_heap *h, uint64_t lo, uint64_t hi);

/* An executable mapping of the program: where its info tables are. */
int lk_ghc_heap_add_code(struct lk_ghc_heap *h, uint64_t lo, uint64_t hi);

/* Trace from the CAFs, then hand over the roots: *roots (malloc'd, the
 * caller frees it) and *n. */
int lk_ghc_heap_roots(struct lk_ghc_heap *h, struct lk_reach_root **roots, size_t *n);

void lk_ghc_heap_free(struct lk_ghc_heap *h);

#endif
