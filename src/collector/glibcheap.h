/*
 * glibcheap.h - the blocks glibc's malloc has handed out, read from a
 * stopped process that leakscope did not start (no event was recorded).
 *
 * Without symbols: the main arena's heap is the [heap] mapping, walked
 * chunk by chunk from its start to the top chunk; main_arena is the word
 * of libc's writable data that holds that top chunk's address (at the
 * offset of malloc_state.top), checked by its bins and its ring of arenas;
 * each other arena of the ring has its heaps (64 MiB aligned, a heap_info
 * at the start, linked by prev), and mmapped chunks are anonymous mappings
 * starting with a chunk header marked IS_MMAPPED. A chunk is in use when
 * the next one has PREV_INUSE, less the chunks in a tcache (each live
 * thread's tcache_perthread_struct, found through its thread-local pointer)
 * or a fast bin (both safe-linked since glibc 2.32), and the tcaches
 * themselves. The layout is glibc 2.36's on x86-64.
 *
 * Everything read is the program's and checked against bounds of our own;
 * walks are capped. Anything inconsistent (a thread stopped inside malloc,
 * another allocator's memory) is an error saying what, never a guess.
 */
#ifndef LK_COLLECTOR_GLIBCHEAP_H
#define LK_COLLECTOR_GLIBCHEAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct lk_glibc_block {
	uint64_t addr;  /* what malloc returned */
	uint64_t size;  /* its usable size (malloc_usable_size) */
};

struct lk_glibc_heap {
	struct lk_glibc_block *blocks;  /* in use, by address */
	size_t n;
	uint64_t bytes;           /* of the blocks */
	uint64_t chunks;          /* chunks walked, in use or free */
	unsigned arenas, heaps, mmapped;
	uint64_t in_tcache, in_fastbins; /* free chunks that look in use */
};

/* Read the heap of stopped process pid through mem_fd; fs_base: the
 * thread pointer of each of its n stopped threads. Returns 0 with out
 * filled (release it), or a negative code with lk_error_set() detail. */
int lk_glibc_heap_read(pid_t pid, int mem_fd, const uint64_t *fs_base, size_t n,
		       struct lk_glibc_heap *out);

void lk_glibc_heap_release(struct lk_glibc_heap *h);

#endif
