/*
 * record.h - what a trace holds, as the writer takes it and the reader
 * gives it back: the trace's metadata, and one record per event, stack,
 * module, symbol and end marker, and the verdicts of the scan at the end.
 * The bytes on disk are in format.h.
 *
 * Times are in ticks (meta.tick_ns nanoseconds each, microseconds unless
 * said otherwise) since trace time 0, non-decreasing in file order.
 */
#ifndef LK_TRACE_RECORD_H
#define LK_TRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/timeline.h"   /* struct lk_frame_text */

struct lk_trace_meta {
	uint32_t pid;
	const char *cmdline;      /* arguments separated by NUL bytes */
	size_t cmdline_len;
	uint64_t start_ns;        /* CLOCK_REALTIME at time 0, ns since the epoch */
	uint32_t tick_ns;         /* ns per tick; writer: 0 means 1000 */
	uint32_t clock_res_ns;    /* resolution of the clock behind the times */
	uint32_t version, minor;  /* reader: format version of the file */
};

struct lk_trace_range {
	uint64_t start, end;      /* [start, end) mapped */
	uint64_t file_offset;
	uint32_t prot;            /* PROT_READ | PROT_WRITE | PROT_EXEC bits */
};

struct lk_trace_module {
	uint32_t id;              /* 1, 2, 3 ... in order of definition */
	uint64_t t;               /* time it was seen loaded */
	const char *path;
	const uint8_t *build_id;  /* GNU build id bytes (may be 0 long) */
	size_t build_id_len;
	uint64_t load_bias;       /* runtime address - link-time address */
	const struct lk_trace_range *ranges;
	size_t n_ranges;
};

struct lk_trace_totals {
	uint64_t events, allocs, frees, bytes_allocated;
	uint64_t stacks, modules, symbols;
	uint64_t chunks;          /* chunks before the end marker */
	uint64_t t_last;
};

enum lk_trace_record_type {
	LK_TRACE_ALLOC = 1,
	LK_TRACE_FREE,
	LK_TRACE_MARK,
	LK_TRACE_SNAPSHOT,
	LK_TRACE_SAMPLE,
	LK_TRACE_STACK,
	LK_TRACE_MODULE,
	LK_TRACE_SYMBOL,
	LK_TRACE_END,
	LK_TRACE_SCAN,            /* 2.1: the scan at the process's end */
	LK_TRACE_CLASS,           /* 2.1: a block's verdict */
};

/* How the blocks live at the end were judged (format.h, CLASSES). */
struct lk_trace_scan {
	int state;                /* enum lk_trace_scan_state */
	const char *note;         /* why there is no verdict, or how it was made; or NULL */
	const char *heap_note;    /* why a collected heap was scanned whole, or NULL */
};

/* One block's verdict, as the writer takes it. */
struct lk_trace_block_verdict {
	uint64_t number;          /* its allocation's */
	uint32_t leader;          /* INDIRECT: the stack id of the block holding it, or 0 */
	uint8_t cls;              /* enum lk_trace_verdict */
};

/* One decoded record. Pointers stay valid until the next call of the
 * reader; fields a type does not use are 0. */
struct lk_trace_record {
	int type;
	uint64_t t;               /* events, modules: time */
	uint32_t tid;             /* ALLOC, FREE, MARK, SNAPSHOT */
	uint32_t stack;           /* ALLOC: stack id (0 = none); STACK: its id */
	uint64_t addr;            /* ALLOC, FREE; SYMBOL: the frame address */
	uint64_t size;            /* ALLOC; FREE: the block's */
	uint64_t serial;          /* ALLOC: its number (0, 1, 2 ... in file order);
				   * FREE: the number of the block's ALLOC,
				   * LK_TRACE_NO_SERIAL if the trace (1.0) has none */
	uint64_t replaces;        /* ALLOC in a 1.0 trace: 1 + the number of a block
				   * still live at addr (its free was not
				   * recorded), else 0 */
	uint64_t rss, live_bytes, live_blocks;   /* SAMPLE */
	const char *text;         /* MARK, SNAPSHOT: NUL-terminated */
	size_t text_len;
	const uint64_t *frames;   /* STACK: innermost first */
	size_t n_frames;
	const struct lk_trace_module *module;    /* MODULE */
	uint32_t module_id;       /* SYMBOL: module of addr, 0 = unknown */
	const struct lk_frame_text *symbol;      /* SYMBOL: innermost first */
	size_t n_symbol;
	const struct lk_trace_totals *totals;    /* END */
	const struct lk_trace_scan *scan;        /* SCAN */
	int cls;                  /* CLASS: enum lk_trace_verdict; serial: the block,
				   * stack: its leader; size and addr: the
				   * block's (record by record reading) */
};

#define LK_TRACE_NO_SERIAL UINT64_MAX

/* Seconds since trace time 0 of a time in ticks. */
static inline double lk_trace_seconds(const struct lk_trace_meta *m, uint64_t t)
{
	return (double)t * (double)(m->tick_ns ? m->tick_ns : 1000) * 1e-9;
}

#endif
