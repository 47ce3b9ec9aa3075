/*
 * writer.h - writes a trace file while the traced program runs
 * (docs/trace-format.md).
 *
 * Records are encoded into per-type buffers; a chunk is closed when its
 * buffer reaches LK_TRACE_CHUNK_TARGET raw bytes (1 MiB) or when the caller
 * flushes. A flush compresses every open buffer (zstd, level 1..3) and
 * writes the chunks with one write(): modules, symbols, stacks, then
 * events, so an event is always preceded in the file by the stack it
 * names. A crash of the writer's process loses at most the open chunks;
 * call lk_trace_writer_flush() periodically (say each second) so that a
 * reader following the file sees recent events.
 *
 * Memory: about 3 MiB whatever the length of the trace. Not thread-safe:
 * one thread writes. Returns 0 or a negative code (common/error.h); the
 * first write error is sticky and returned by every later call.
 */
#ifndef LK_TRACE_WRITER_H
#define LK_TRACE_WRITER_H

#include "trace/record.h"

struct lk_trace_writer;

struct lk_trace_writer_options {
	int level;        /* zstd level; 0 = 1 */
	int stored;       /* 1: do not compress (tests, fuzz seeds) */
	int numbered;     /* 1: the caller keeps the number of each live block
			   * (lk_trace_writer_allocs) and frees by number; the
			   * writer keeps no table of addresses */
};

/* Create path (mode 0600; an existing file of this user is emptied, a
 * symbolic link of another is not followed: common/files.h) and write the
 * file header. opt may be NULL. */
int lk_trace_writer_open(const char *path, const struct lk_trace_meta *meta,
			 const struct lk_trace_writer_options *opt,
			 struct lk_trace_writer **out);

/* The same on an open descriptor, which stays the caller's. */
int lk_trace_writer_fdopen(int fd, const struct lk_trace_meta *meta,
			   const struct lk_trace_writer_options *opt,
			   struct lk_trace_writer **out);

/* Events. t: ticks since time 0; a time before the previous event's is
 * recorded as the previous one. stack must be 0 or already defined.
 * Allocations are numbered 0, 1, 2 ... in the order written; one at
 * address 0 (a failed allocation) is not written; a writer that is not
 * numbered writes the free of a block still live at addr first (its free
 * was missed). */
int lk_trace_write_alloc(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
			 uint64_t addr, uint64_t size, uint32_t stack);
/* The free of the block live at addr (a writer that is not numbered); a
 * free of an address that is not live is not written. */
int lk_trace_write_free(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
			uint64_t addr);
/* A writer opened `numbered` frees live allocation `number` (of address
 * addr and that size), which the caller must know to be live; -EINVAL for
 * a number not given yet or a writer not numbered. */
int lk_trace_write_free_number(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
			       uint64_t number, uint64_t addr, uint64_t size);
/* The number the next allocation written will have: allocations written. */
uint64_t lk_trace_writer_allocs(const struct lk_trace_writer *w);
/* text longer than LK_TRACE_TEXT_MAX bytes is cut there. */
int lk_trace_write_mark(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
			const char *text);
int lk_trace_write_snapshot(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
			    const char *name);
int lk_trace_write_sample(struct lk_trace_writer *w, uint64_t t, uint64_t rss,
			  uint64_t live_bytes, uint64_t live_blocks);

/* Define stack id (the next one: 1, 2, 3 ...) as n return addresses,
 * innermost first (1 <= n <= LK_TRACE_FRAMES_MAX). -EINVAL otherwise. */
int lk_trace_write_stack(struct lk_trace_writer *w, uint32_t id,
			 const uint64_t *frames, size_t n);

/* Define module m->id (the next one: 1, 2, 3 ...). At most
 * LK_TRACE_RANGES_MAX ranges; strings are cut at LK_TRACE_STRING_MAX. */
int lk_trace_write_module(struct lk_trace_writer *w, const struct lk_trace_module *m);

/* What the frame address addr is: n frames (1..LK_TRACE_INLINE_MAX), the
 * innermost (inlined) first; module 0 or a defined module id. */
int lk_trace_write_symbol(struct lk_trace_writer *w, uint64_t addr, uint32_t module,
			  const struct lk_frame_text *frames, size_t n);

/* The verdicts of the scan at the process's end: scan, and n blocks of
 * the trace (allocation numbers ascending, each allocated in the trace;
 * leaders defined stack ids), written after the events so far in
 * CLASSES chunks (format.h). To be the last thing before close: no
 * event may follow. 0, -EINVAL (detail set) or the write's error. */
int lk_trace_write_classes(struct lk_trace_writer *w, const struct lk_trace_scan *scan,
			   const struct lk_trace_block_verdict *blocks, size_t n);

/* Close and write the open chunks (no-op when nothing is open). */
int lk_trace_writer_flush(struct lk_trace_writer *w);

/* Bytes written to the file so far. */
uint64_t lk_trace_writer_offset(const struct lk_trace_writer *w);

/* Flush, write the END chunk, close the file if the writer opened it and
 * free w (always, even on error). */
int lk_trace_writer_close(struct lk_trace_writer *w);

/* Free w without writing anything more (the file keeps its complete
 * chunks, as after a crash). */
void lk_trace_writer_abandon(struct lk_trace_writer *w);

#endif
