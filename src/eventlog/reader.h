/*
 * reader.h - streaming reader of GHC eventlogs (the binary, big-endian
 * format of rts/include/rts/EventLogFormat.h; docs/eventlog.md).
 *
 * An iterator: lk_eventlog_open() reads the header (the event-type
 * declarations), then each lk_eventlog_next() yields one event, or, after
 * lk_eventlog_want_only(), the next event of the types asked for: the
 * others are still checked (declared, complete) but stepped over in place.
 * The reader holds one fixed-size buffer, whatever the size of the file:
 * memory is bounded by the largest possible event (64 KiB payload), not by
 * the input.
 *
 * What it checks: magic numbers and header structure, every event id is
 * declared in the header, every event fits in the file. Event types it does
 * not know are skipped by their declared size. IPE events (169) are parsed
 * field by field (u64 + 6 NUL-terminated strings) and the reader resumes
 * after the 6th NUL, since GHC 9.6 declares them one byte too long.
 * Truncation and corruption are reported with the byte offset and the time
 * of the last complete event (lk_error_detail()).
 */
#ifndef LK_EVENTLOG_READER_H
#define LK_EVENTLOG_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Event ids leakscope reads (GHC's EVENT_* numbers). */
enum {
	LK_EV_LOG_MSG = 16,
	LK_EV_BLOCK_MARKER = 18,
	LK_EV_USER_MSG = 19,
	LK_EV_RTS_IDENTIFIER = 29,
	LK_EV_PROGRAM_ARGS = 30,
	LK_EV_WALL_CLOCK_TIME = 43,
	LK_EV_HEAP_ALLOCATED = 49,
	LK_EV_HEAP_SIZE = 50,
	LK_EV_HEAP_LIVE = 51,
	LK_EV_USER_MARKER = 58,
	LK_EV_BLOCKS_SIZE = 91,
	LK_EV_HEAP_PROF_BEGIN = 160,
	LK_EV_HEAP_PROF_COST_CENTRE = 161,
	LK_EV_HEAP_PROF_SAMPLE_BEGIN = 162,
	LK_EV_HEAP_PROF_SAMPLE_COST_CENTRE = 163,
	LK_EV_HEAP_PROF_SAMPLE_STRING = 164,
	LK_EV_HEAP_PROF_SAMPLE_END = 165,
	LK_EV_HEAP_BIO_PROF_SAMPLE_BEGIN = 166,
	LK_EV_IPE = 169,
};

#define LK_EVENTLOG_VARSIZE 0xFFFFu  /* declared size of variable-size types */
#define LK_EVENTLOG_NOCAP 0xFFFFu    /* global buffer, or outside any block */

struct lk_eventlog_event {
	uint16_t type;
	uint16_t cap;            /* capability of the enclosing block */
	uint64_t time;           /* ns since RTS start */
	uint64_t offset;         /* file offset of the event's first byte */
	const uint8_t *payload;  /* valid until the next lk_eventlog_next() */
	size_t len;              /* payload bytes (IPE: up to the 6th NUL) */
};

struct lk_eventlog;

/* Read the header of f (positioned at its start) and return a reader in *out.
 * LK_EFORMAT: not an eventlog or bad header; LK_ETRUNC: file ends inside the
 * header; -ENOMEM, -EIO. f stays owned by the caller. */
int lk_eventlog_open(FILE *f, struct lk_eventlog **out);

/* Next event in file order (block markers included). Returns 1 with *ev
 * filled, 0 at the end of data (end marker, or end of file between events),
 * LK_EVENTLOG_SKIPPED after damage (an undeclared event type, an event
 * past the end of its block, a malformed IPE) followed by another event
 * block: the bytes from the damage to that block were skipped, *ev tells
 * which (offset, len; cap: the damaged block's; type 0, no payload),
 * lk_error_detail() says so ("bytes X-Y skipped: ..."), and the next call
 * reads on from there. Else a negative code: LK_ETRUNC (file ends inside
 * an event), LK_EFORMAT (damage with no block after it), -EIO. After an
 * error the reader stays at the error: every further call returns the
 * same code. */
#define LK_EVENTLOG_SKIPPED 2
int lk_eventlog_next(struct lk_eventlog *r, struct lk_eventlog_event *ev);

/* The event right after ev (the last one returned) when it is of the same
 * type and wholly in the bytes at hand: 1 with *ev replaced; else 0, and
 * lk_eventlog_next() reads on. For runs of one type, as a census's
 * samples are: the type is known declared and wanted, only the size is
 * checked. */
int lk_eventlog_next_same(struct lk_eventlog *r, struct lk_eventlog_event *ev);

/* From now on return only events of these n types (a block marker only if
 * listed; it still sets the capability of the events after it). The
 * others are consumed without being returned: fixed-size ones by one table
 * look-up each, inside the bytes at hand. */
void lk_eventlog_want_only(struct lk_eventlog *r, const uint16_t *types, size_t n);

void lk_eventlog_close(struct lk_eventlog *r);

/* Declared payload size of type id: 0..65534, LK_EVENTLOG_VARSIZE, or -1
 * when the header does not declare it. */
int lk_eventlog_type_size(const struct lk_eventlog *r, uint16_t id);

/* Description of a declared type from the header ("" if none). */
const char *lk_eventlog_type_name(const struct lk_eventlog *r, uint16_t id);

/* Position facts, for messages and statistics. */
uint64_t lk_eventlog_offset(const struct lk_eventlog *r);     /* bytes consumed */
uint64_t lk_eventlog_last_time(const struct lk_eventlog *r);  /* ns, last complete event */
uint64_t lk_eventlog_count(const struct lk_eventlog *r);      /* events read, returned or not */
int lk_eventlog_ended(const struct lk_eventlog *r);           /* 1: saw the end marker */

#endif
