/*
 * reach.h - the conservative reachability classifier: given the live blocks
 * of a stopped (dead or dying) process, a way to read its memory and the
 * ranges that are roots, say of every block whether it is definitely lost,
 * indirectly lost, possibly lost or still reachable, with valgrind
 * memcheck's (--leak-check=full) and LeakSanitizer's meaning of the words.
 *
 * A pure module: it never knows where memory comes from (ptrace, a core
 * file, a test buffer) and never decides what is a root. It reads the target
 * only through the callback, in chunks of at most LK_REACH_CHUNK bytes, into
 * one reusable buffer. Memory is O(blocks); nothing is allocated per block
 * or per word, and nothing recurses, so chains of millions of blocks are
 * fine.
 *
 * Words. Every aligned 8-byte word lying wholly inside a scanned range is a
 * candidate pointer (unaligned bytes never are). A value p is a "start
 * pointer" to block B if p == B.addr (this is how a zero-size block is
 * reached), an "interior pointer" if B.addr < p < B.addr + B.size. Blocks
 * must not overlap.
 *
 * Roots. The words of every root range, the extra values (register
 * contents), and the content of every ignored block. Words of a root range
 * that lie inside a live block are not roots: a block's content counts only
 * once the block itself is reached, so passing a whole malloc arena as an
 * "anonymous mapping" root does not make every block reachable (what is
 * left of it, free chunks and allocator metadata, is still scanned).
 *
 * Algorithm (each block's content is read at most once in total):
 *   1. Reachable. Ignored blocks are marked reachable and pushed; then the
 *      roots are scanned. A start pointer to an unmarked block marks it
 *      reachable and pushes it; an interior pointer to an unmarked block
 *      only notes it as "interior-hit". The work stack is drained, scanning
 *      each popped block's content the same way. Result: the blocks reached
 *      from roots through start pointers only.
 *   2. Possibly lost. Every interior-hit block still unmarked is marked
 *      possible and pushed; draining the stack, any pointer (start or
 *      interior) to an unmarked block marks it possible and pushes it. This
 *      equals "reachable from roots when interior pointers count, minus
 *      pass 1" (memcheck's cases 5-8: at least one link of every chain from
 *      a root is an interior pointer), without reading reachable blocks
 *      twice.
 *   3. Lost: cliques (valgrind's algorithm). Unmarked blocks are visited in
 *      address order; each one not yet marked indirect becomes a clique
 *      leader L: everything reachable from L through unmarked blocks by any
 *      pointer, except L itself, is marked indirect (and an earlier leader
 *      reached this way stops being one). A block already marked indirect
 *      that would later be a leader stays indirect and is not visited again.
 *      Leaders left are DEFINITE; so every unreachable structure, cycles
 *      included, has at least one definite head (a lost 2-cycle gives one
 *      definite, one indirect).
 *
 * Lookup: blocks sorted by address (a private index, radix-sorted; the
 * caller's array is left alone), a bucket table over the address span
 * (about one bucket per block) narrowing a binary search to a few entries,
 * and a [lowest, highest) pre-filter that rejects most non-pointer words
 * with one comparison. Candidates are looked up 32 at a time with their
 * table entries prefetched, so cache misses overlap.
 *
 * Reads. A failing read of a root range is retried page by page (4 KiB) so
 * a guard page does not hide the rest; the range is counted once in
 * unreadable_roots. A failing read of a block's content ends the scan of
 * that block (words already read count) and counts it in
 * unreadable_blocks.
 */
#ifndef LK_ANALYZE_REACH_H
#define LK_ANALYZE_REACH_H

#include <stddef.h>
#include <stdint.h>

#include "collector/live.h"

#define LK_REACH_CHUNK (64 * 1024)

/* Reads len bytes of the target at addr into buf; returns 0 or negative
 * (unreadable). len is at most LK_REACH_CHUNK. */
typedef int (*lk_reach_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* What the target has at addr: LK_ADDR_FILE when it lies in a readable
 * mapping of a file, with LK_ADDR_CODE when that mapping is executable;
 * 0 otherwise. For the multiple-inheritance heuristic (vtables). */
typedef unsigned (*lk_reach_kind_fn)(void *ctx, uint64_t addr);
enum { LK_ADDR_FILE = 1, LK_ADDR_CODE = 2 };

enum lk_reach_class {
	LK_REACH_DEFINITE = 0,
	LK_REACH_INDIRECT,
	LK_REACH_POSSIBLE,
	LK_REACH_REACHABLE,
};

/* A memory range to scan: [lo, hi). kind ("data", "bss", "stack", "regs",
 * "anon"...) is the caller's label; the classifier does not read it. */
struct lk_reach_root {
	uint64_t lo, hi;
	const char *kind;
};

/* With LK_REACH_WHY: what reached a block first (for a reachable block, a
 * start pointer; for a possibly lost one, possibly an interior one). */
enum lk_reach_via {
	LK_VIA_NONE = 0,  /* not reached: definitely or indirectly lost */
	LK_VIA_ROOT,      /* a word of root range `index` at `where` */
	LK_VIA_VALUE,     /* extra value (register) `index` */
	LK_VIA_BLOCK,     /* a word of block `index` (the caller's order) at `where` */
	LK_VIA_KEPT,      /* an ignored block: kept on purpose */
};

struct lk_reach_why {
	uint64_t where;
	uint32_t index;
	uint8_t via;
};

/* Result: one class per block, in the order of the blocks array. */
struct lk_reach {
	uint8_t *classes;                /* n_blocks entries (enum lk_reach_class) */
	struct lk_reach_why *why;        /* with LK_REACH_WHY: n_blocks entries, else NULL */
	uint32_t *leader;                /* n_blocks entries: for an indirectly lost
					  * block, the definitely lost one (the caller's
					  * index) whose structure holds it */
	size_t n_blocks;
	uint64_t bytes[4], objects[4];   /* totals per class (size of blocks) */
	uint64_t scanned_bytes;          /* root + block bytes read */
	size_t unreadable_roots;         /* root ranges with an unreadable part */
	size_t unreadable_blocks;        /* reached blocks whose content failed */
};

/*
 * Classify n_blocks live blocks (any order; addr must be non-zero, blocks
 * must not overlap). roots: ranges to scan (data/bss of modules, thread
 * stacks from sp, anonymous mappings...). extra_values: n_values individual
 * pointer values treated as roots (registers). ignored: NULL or n_blocks
 * flags: LK_REACH_KEPT (1) = the program marked the block as intentionally
 * kept: it is a root and is reachable; LK_REACH_NODE (2) = an object of a
 * garbage-collected heap (Go's): any pointer into it reaches it, it is
 * scanned only once reached, and it is never lost nor holds anything lost
 * (its class means nothing to the caller). read/ctx: how to read the target; kind/ctx: what
 * lies at an address (NULL: unknown).
 *
 * Returns 0 and fills *out (release it with lk_reach_release), or a
 * negative code (-ENOMEM, LK_EUSAGE for a zero address, LK_ELIMIT past
 * 2^32-1 blocks) with *out zeroed. Unreadable memory is not an error.
 */
int lk_reach_classify(const struct lk_block *blocks, size_t n_blocks,
		      const struct lk_reach_root *roots, size_t n_roots,
		      const uint64_t *extra_values, size_t n_values,
		      const uint8_t *ignored, unsigned flags,
		      lk_reach_read_fn read, lk_reach_kind_fn kind, void *ctx,
		      struct lk_reach *out);

/* values of lk_reach_classify's ignored[] */
enum { LK_REACH_KEPT = 1, LK_REACH_NODE = 2 };

/* flags of lk_reach_classify */
enum {
	/* Blocks come from glibc malloc: a pointer to where the next chunk's
	 * header sits (addr - 16 + chunk size), which falls inside a block whose
	 * size fills its chunk, is allocator metadata (the arena's top, bins),
	 * not a program's interior pointer. */
	LK_REACH_GLIBC_CHUNKS = 1,
	/* Keep for each block what reached it first (out->why): slower, for
	 * --why. */
	LK_REACH_WHY = 2,
	/* valgrind's leak-check heuristics (its default: all): an interior
	 * pointer reaches a block as a start pointer would when the block is
	 * a reference-counted std::string (the pointer past a 24-byte header
	 * of length <= capacity, capacity + 25 = size), a length-prefixed
	 * buffer (past an 8-byte length = size - 8), a new[] array of objects
	 * with a destructor (past an element count n > 0 dividing size - 8),
	 * or an object with several polymorphic bases (the pointer and the
	 * block's start both hold a vtable's address: a table in a file
	 * mapping of at least two pointers to code; only with `kind`); and one
	 * of ours: an over-aligned object placed inside its block, which keeps
	 * the block's start to free it with (one of the object's first four
	 * words holds it, as the dynamic loader's _dl_find_object segments
	 * do). */
	LK_REACH_HEURISTICS = 4,
};

void lk_reach_release(struct lk_reach *r);

/* "definite", "indirect", "possible", "reachable". */
const char *lk_reach_class_name(enum lk_reach_class c);

#endif
