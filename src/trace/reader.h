/*
 * reader.h - streaming reader of leakscope traces (docs/trace-format.md).
 *
 * An iterator: lk_trace_reader_open() reads the file header, then each
 * lk_trace_reader_next() yields one record in file order. The reader holds
 * one chunk at a time (at most LK_CHUNK_RAW_MAX decoded bytes, 1 MiB from
 * our writer) plus fixed tables, whatever the length of the trace.
 *
 * Never trusts the file: CRCs of the header, of every chunk header and
 * payload; sizes against the limits; chunk sequence numbers; every varint,
 * string and count against the end of its record; stack and module ids
 * against those defined; thread-table and ring references; the end
 * marker's totals. Chunk types it does not know are skipped by their size
 * when the file's minor version is newer than the reader's, and are an
 * error otherwise. A file of a newer major version is refused.
 *
 * Truncation (a writer that crashed, or is still writing) stops the
 * records at the end of the last complete chunk with LK_ETRUNC and the
 * detail "truncated at offset N (last complete chunk ends at T s)". Calling
 * lk_trace_reader_next() again tries again from there: a file that grew in
 * the meantime goes on being read (follow mode). Any other error is sticky.
 */
#ifndef LK_TRACE_READER_H
#define LK_TRACE_READER_H

#include <stdio.h>

#include "trace/format.h"
#include "trace/record.h"

struct lk_trace_reader;

enum {
	LK_TRACE_NOVERIFY = 1,   /* skip CRC checks (fuzzing); all else is checked */
};

/* Read the header of f (positioned at the start of the trace). f stays the
 * caller's. LK_EFORMAT: not a trace or damaged header; LK_EVERSION: newer
 * major version; LK_ETRUNC: the file ends inside the header; -ENOMEM, -EIO. */
int lk_trace_reader_open(FILE *f, int flags, struct lk_trace_reader **out);

/* The header. Strings belong to the reader. */
const struct lk_trace_meta *lk_trace_reader_meta(const struct lk_trace_reader *r);

/* Next record: 1 with *rec filled, 0 after the END record, or a negative
 * code: LK_ETRUNC (see above), LK_EFORMAT (damage, with the offset in the
 * detail), LK_ELIMIT (a chunk larger than the reader accepts), -EIO. */
int lk_trace_reader_next(struct lk_trace_reader *r, struct lk_trace_record *rec);

/*
 * Bulk reading, for analyses that walk the events themselves (history/):
 * lk_trace_reader_next_chunk() is lk_trace_reader_next() but for the
 * EVENTS chunks of a version 2 trace, which it returns whole (2, with *ev
 * set): the streams decoded, but ADDR, the TAG stream one byte an event
 * (the records of 1.0 chunks come one by one as before). Each stream is
 * followed by LK_TRACE_STREAM_PAD bytes of 0xFF, so that the one- and
 * two-byte varints read without a bounds check (lk_get_varint_padded in
 * format.h). The caller
 * decodes the events (format.h), checking what indexes its own memory
 * (stack ids against n_stacks, frees against the allocations so far);
 * lk_trace_reader_bad() turns what it finds wrong into the
 * reader's error. At the end of the chunk it calls
 * lk_trace_reader_events_done() with where each stream's reading stopped
 * and what it counted, which the reader checks (every stream used up, the
 * last time) and adds to the totals the END record is checked against.
 * Use one way or the other on a reader, not both.
 */
struct lk_trace_events {
	const uint8_t *s[LK_EVS_COUNT], *e[LK_EVS_COUNT];  /* streams; ADDR: NULL */
	uint32_t count;           /* events */
	uint64_t t_first, t_last; /* times of the first and last event */
	uint64_t allocs;          /* allocations before the chunk */
	uint32_t n_stacks;        /* stack ids defined so far: 1 .. n_stacks */
	uint64_t offset;          /* of the chunk in the file */
	uint32_t seq;             /* its sequence number */
};

struct lk_trace_events_end {
	const uint8_t *s[LK_EVS_COUNT];   /* where each stream's reading stopped */
	uint64_t t;                       /* time of the last event */
	uint64_t allocs, frees, bytes_allocated;
};

/*
 * The stacks of a STACKS chunk, in bulk mode: lk_trace_reader_next_chunk()
 * returns 3 with *st set to the chunk's coded stacks (format.h), ids
 * first, first + 1 ... in [p, end): the reader's bytes until the next
 * call, which the caller takes (lk_trace_reader_take_chunk) to keep them.
 * lk_trace_stacks_next() skims one stack at a time: its number of
 * frames and frame 0, and where frames 1.. are coded, decoded later by
 * lk_trace_stack_frames() (only stacks a report shows ever are): a
 * fraction of the cost of decoding every frame, and the coded stacks
 * take a third of the memory of the addresses. Then
 * lk_trace_reader_stacks_done() checks the chunk was used up and counts
 * its stacks.
 */
struct lk_trace_stacks {
	const uint8_t *p, *end;
	uint32_t first, count;
	uint32_t taken;           /* stacks skimmed so far */
	uint64_t prev0;           /* frame 0 of the stack before */
};

struct lk_trace_stack_ref {
	uint32_t id, n;           /* n frames, 1 .. LK_TRACE_FRAMES_MAX */
	uint64_t frame0;
	const uint8_t *rest;      /* frames 1 .. n - 1, coded */
};

/* The next stack of st into *s: 1, 0 after the last, or -1 with *what
 * saying what is wrong (the bytes, checked varint by varint, end or
 * break the format). */
int lk_trace_stacks_next(struct lk_trace_stacks *st, struct lk_trace_stack_ref *s,
			 const char **what);

/* The n frames of a skimmed stack, innermost first, into frames. */
void lk_trace_stack_frames(const struct lk_trace_stack_ref *s, uint64_t *frames);

int lk_trace_reader_next_chunk(struct lk_trace_reader *r, struct lk_trace_record *rec,
			       struct lk_trace_events *ev, struct lk_trace_stacks *st);
int lk_trace_reader_events_done(struct lk_trace_reader *r, const struct lk_trace_events_end *e);
/* The buffer that holds the chunk just read (a STACKS chunk's p .. end),
 * handed to the caller, who frees it; the reader makes a new one. */
uint8_t *lk_trace_reader_take_chunk(struct lk_trace_reader *r);
int lk_trace_reader_stacks_done(struct lk_trace_reader *r, const struct lk_trace_stacks *st);
/* LK_EFORMAT, the detail naming the chunk and the record's index in it. */
int lk_trace_reader_bad(struct lk_trace_reader *r, uint32_t index, const char *what);

/*
 * The allocation times of numbers[0 .. n) (ascending, all allocations of
 * the 2.0 EVENTS chunk delivered in bulk as *ev with that offset, seq and
 * allocs = first) into times: the chunk is read again (a seekable file)
 * and its TAG and TIME streams decoded, the rest not. For an analysis that
 * keeps no time with its live blocks and learns at the end which blocks'
 * times it shows. Between chunks only (none being read); the reader goes
 * on where it was. 0, or the reader's errors (the file changed, -EIO).
 */
int lk_trace_reader_alloc_times(struct lk_trace_reader *r, uint64_t offset, uint32_t seq,
				uint64_t first, const uint64_t *numbers, size_t n, uint64_t *times);

/* File offset where the last complete chunk ends, and its last time. */
uint64_t lk_trace_reader_good_offset(const struct lk_trace_reader *r);
uint64_t lk_trace_reader_good_time(const struct lk_trace_reader *r);

void lk_trace_reader_close(struct lk_trace_reader *r);

#endif
