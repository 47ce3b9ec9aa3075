/*
 * history.h - the streaming analysis of a trace (src/trace/): one pass
 * over its records computes everything `leakscope report` and `leakscope
 * diff` show. Memory follows the live blocks and the distinct allocation
 * sites (stacks), never the number of events: per site a few counters, a
 * bounded timeline (history/sampler.h) and running sums (and 24 bytes an
 * EVENTS chunk of the trace, each up to a MiB of events, to read again).
 *
 * What is computed (docs/json-trace-report.md has the meaning of each):
 * - totals: events, allocations, frees, bytes, peak live bytes and its
 *   time, final live bytes, RSS peak (SAMPLE records);
 * - per site: allocations, bytes, frees, live bytes and blocks at the end
 *   and at the global peak (kept lazily: the sites' changes since the
 *   last peak are logged, and undone from their values when the log is
 *   full or the read ends), temporary allocations;
 * - a window [from, to]: per site, blocks allocated in it and still live
 *   at `to` (count, bytes, first and last allocation time), blocks live at
 *   `from`, and of those the ones still live at `to` (which makes a diff of
 *   two points exact per block); a bounded sample of the leaked blocks
 *   (time, size) for the leak-candidate chart;
 * - per site a live-bytes timeline of the window and its statistics
 *   (timeline.h), and when the window has markers a least-squares line of
 *   the site's bytes at each marker against the marker's index: bytes per
 *   marker interval. The growth ranking is theirs: a window's growth.
 *
 * - the verdicts of the scan made as the process ended, if the trace
 *   has them (history/verdicts.h makes them a leak report);
 *
 * - sizes: per power-of-two size class, allocations and bytes, and the
 *   blocks still live at the end (a histogram to choose --size by); the
 *   same of the window: allocations in it, blocks live at its end and
 *   those of them allocated in it.
 *
 * The size filter keeps blocks of other sizes out of every per-site number;
 * the totals, the peak and the size classes are those of the whole heap.
 *
 * Ownership: a history owns all it points to (but a snapshot of a trace
 * followed as it grows, history/follow.h, which borrows what `borrowed`
 * says from its follower); lk_history_release().
 */
#ifndef LK_HISTORY_HISTORY_H
#define LK_HISTORY_HISTORY_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/timeline.h"
#include "history/blocks.h"
#include "history/cells.h"
#include "history/point.h"
#include "history/sampler.h"
#include "history/spans.h"
#include "history/symtab.h"
#include "trace/reader.h"
#include "trace/record.h"

#define LK_HISTORY_SCATTER 4000u   /* leak candidates kept for the chart */

struct lk_hist_options {
	struct lk_point from, to;  /* kind START / END when not given */
	int from_after;            /* from at time X: after the events at X (diff) */
	uint64_t size_min, size_max;   /* blocks of these sizes; 0, 0 = all */
	int stop_at_to;            /* stop reading once `to` is reached */
	void (*progress)(void *arg);   /* called after each EVENTS chunk (version 2)
					* or every 2^16 records (may be NULL) */
	void *progress_arg;
	int reader_flags;          /* LK_TRACE_NOVERIFY for fuzzing, else 0 */
	int cells;                 /* keep the cells of the window (history/cells.h) */
};

/* What every event of a site touches, while the trace is read: one cache
 * line a site, the sites' lines side by side (struct lk_history's `hot`),
 * copied into the sites at the end. */
struct lk_hist_hot {
	uint64_t live_bytes, live_count;
	uint64_t allocs, bytes_allocated;
	uint64_t stamp;                    /* the history's stamp when last synced */
	uint64_t peak_bytes, peak_count;   /* at the global peak (once settled) */
	uint64_t temporaries;
};

struct lk_hist_site {
	uint64_t live_bytes, live_count;   /* at the end (the read has them in `hot`) */
	uint64_t allocs, bytes_allocated, frees, temporaries;
	uint64_t peak_bytes, peak_count;   /* at the global peak */
	uint32_t id;               /* stack id (0: allocations without a stack) */
	size_t n_addrs;            /* frames of the stack */
	uint64_t *addrs;           /* its return addresses, innermost first:
				    * decoded from `stack` when first asked
				    * (lk_history_site_addrs) */
	struct lk_trace_stack_ref stack;   /* the coded stack, in h->stack_chunks */
	struct lk_frame_text *frames;  /* symbolized by lk_history_symbolize(), */
	size_t n_frames;               /* strings belong to the symtab */
	uint64_t from_bytes, from_count;   /* live at `from` */
	uint64_t win_bytes, win_count;     /* allocated in [from, to], live at `to` */
	uint64_t win_first, win_last;      /* their first and last allocation times */
	uint64_t kept_bytes, kept_count;   /* live at `from` and at `to` */
	uint64_t lost_frees;               /* blocks replaced (a 1.0 trace's lost free) */
	struct lk_band_stats stats;        /* of the timeline, bytes vs seconds: a
					    * cache, read by lk_history_site_stats() */
	double per_mark, per_mark_fit;     /* bytes per marker interval, R^2 */
	/* internal state of the pass */
	struct lk_series_buf series;
	int stats_ready;
	uint32_t marks_seen;
	long double sy, sxy, syy;
};

/* Size class c holds the sizes of bit length c: 0 (size 0), 1, 2-3, 4-7,
 * ..., [2^(c-1), 2^c - 1]. */
#define LK_HIST_SIZE_CLASSES 65

struct lk_hist_size_class {
	uint64_t allocs, bytes;
	uint64_t live_count, live_bytes;   /* now; after the read: at the end */
	/* the window: allocations (and bytes) made before it started and
	 * before it ended; blocks live at its end, and of those the ones
	 * allocated in it (not freed in the window) */
	uint64_t from_allocs, from_bytes, to_allocs, to_bytes;
	uint64_t to_live_count, to_live_bytes, win_count, win_bytes;
};

static inline unsigned lk_hist_size_class_of(uint64_t size)
{
	return size ? 64u - (unsigned)__builtin_clzll(size) : 0;
}

/* The smallest and largest size of class c. */
static inline uint64_t lk_hist_size_class_min(unsigned c)
{
	return c ? 1ull << (c - 1) : 0;
}
static inline uint64_t lk_hist_size_class_max(unsigned c)
{
	return c ? (c == 64 ? UINT64_MAX : (1ull << c) - 1) : 0;
}

struct lk_hist_name {
	uint64_t t;
	char *text;
};

/* Totals of the trace up to a point: the peak of the live bytes so far and
 * its time (ticks), allocations, bytes allocated, temporary allocations. */
struct lk_hist_totals {
	uint64_t peak_bytes, peak_t;
	uint64_t allocs, bytes_allocated, temporaries;
};

struct lk_hist_candidate {
	uint64_t t, size;
	uint32_t site;
};

struct lk_history {
	struct lk_trace_meta meta;
	char *program;             /* command line, arguments separated by spaces */
	struct lk_hist_site *sites;    /* index = stack id */
	struct lk_hist_hot *hot;       /* the same, while reading (64-byte aligned) */
	struct lk_series_buf *series;  /* the sites' timelines, while reading (side
				    * by side: a sample's time touches each of
				    * them, not each site's record) */
	size_t n_sites;
	uint8_t **stack_chunks;    /* the coded stacks of each STACKS chunk */
	size_t n_stack_chunks;
	struct lk_symtab symtab;
	struct lk_hblocks blocks;
	/* The blocks keep no allocation time when the trace (2.0, a file)
	 * can be read again: the times of the few blocks a report shows come
	 * from their chunks at the end (while reading, the window's times
	 * hold allocation numbers: times never decrease with them). */
	int times_later;
	int span_times;            /* the spans' times come from the blocks (kept) */
	struct lk_hist_chunk { uint64_t offset, allocs; uint32_t seq; } *chunks;  /* EVENTS */
	size_t n_chunks, cap_chunks;
	/* totals */
	uint64_t events, allocs, frees, bytes_allocated, unmatched_frees, lost_frees;
	uint64_t temporaries;
	struct lk_hist_size_class sizes[LK_HIST_SIZE_CLASSES];
	uint64_t t_end;            /* time of the last record read */
	uint64_t live_bytes;       /* of the blocks live now */
	uint64_t peak_bytes, peak_t;
	uint64_t *peak_log;        /* the sites' changes since the last peak */
	size_t peak_log_n, peak_log_cap;
	int peak_logging;          /* not settled (peak_settle) */
	int sizes_live_done;       /* the size classes' live blocks are counted */
	uint64_t rss_peak, rss_peak_t, rss_now, n_samples_rss;
	uint64_t rss_stamp;        /* the clock when rss_now was sampled */
	uint64_t final_bytes, final_count;
	/* markers and snapshots, in file order */
	struct lk_hist_name *marks, *snapshots;
	size_t n_marks, n_snapshots;
	/* the window */
	int from_done, to_done;
	int time_points;           /* a point at a time is still to come */
	uint64_t from_t, to_t;
	uint64_t from_number;      /* allocations from this number on are in the window */
	struct lk_hist_totals at_from;   /* the totals when the window started */
	uint64_t win_bytes, win_count;
	struct lk_hist_candidate *candidates;  /* by time */
	size_t n_candidates;
	/* timelines of the window: sample j at origin + j * sampler.delta
	 * ticks, j < sampler.due; origin = from_t, the last sample <= to_t */
	uint64_t origin;
	uint32_t win_marks;        /* markers in the window (per_mark's points) */
	struct lk_sampler sampler;
	struct lk_series_buf total_series, rss_series;
	double *times;             /* sampler.due sample times, seconds */
	struct lk_hcells cells;    /* when opt.cells: by site, a, f once read;
				    * interval sampler.due ends at to_t */
	struct lk_hcells size_cells;   /* the same by size class (every block,
					* whatever the size filter) */
	struct lk_hspans spans;    /* when opt.cells and the times come later:
				    * the blocks that outlived their interval */
	/* the verdicts of the scan at the process's end (CLASSES, format.h) */
	struct lk_hist_verdicts {
		int known;             /* the trace has them */
		int scanned;           /* the scan was made: blocks carry their class */
		char *note, *heap_note;    /* the scan's notes, or NULL */
		struct lk_trace_block_verdict *v;  /* by allocation number */
		size_t n, cap;
	} verdicts;
	char **warnings;
	size_t n_warnings;
	int truncated;
	struct lk_hist_options opt;
	/* a snapshot of a followed history (history/follow.h): the blocks,
	 * the stacks, the symbols, the markers, snapshots and verdicts, and
	 * the peak log are the follower's */
	int borrowed;
	/* temporaries: the last allocation of recent threads */
	struct { uint32_t tid; uint64_t number1; } *threads;
};

/*
 * Read the trace f (positioned at its start) into h. 0 when the trace was
 * read to its end or to a truncation (h->truncated and a warning say so);
 * else a negative code with the detail set: the reader's errors
 * (LK_EFORMAT, LK_EVERSION, ...), LK_ENOTFOUND for a marker or snapshot
 * name the trace does not have (the detail lists those it has), LK_EUSAGE
 * for a window that ends before it starts or starts after the trace,
 * -ENOMEM. h must be released in every case.
 */
int lk_history_read(FILE *f, const struct lk_hist_options *opt, struct lk_history *h);

void lk_history_release(struct lk_history *h);

/* Seconds of a time in ticks. */
double lk_history_seconds(const struct lk_history *h, uint64_t t);
/* Nanoseconds of a time in ticks, exactly. */
uint64_t lk_history_ns(const struct lk_history *h, uint64_t t);

enum lk_hist_key {
	LK_HIST_BY_LIVE,           /* live bytes at the end */
	LK_HIST_BY_ALLOCS,         /* allocations */
	LK_HIST_BY_BYTES,          /* bytes allocated */
	LK_HIST_BY_TEMPORARIES,
	LK_HIST_BY_PEAK,           /* bytes live at the peak */
	LK_HIST_BY_LEAK,           /* window leaks */
	LK_HIST_BY_GROWTH,         /* slope of the timeline, growing sites only */
};

/* The number behind a key (0 for LK_HIST_BY_GROWTH, which is a slope). */
uint64_t lk_hist_site_amount(const struct lk_hist_site *s, enum lk_hist_key key);

/* The sites with a positive key, largest first (ties: by id): *n of them;
 * *idx is a new array of the indices of the first min(*n, limit) (all when
 * limit is 0), which the caller frees. 0 or -ENOMEM. */
int lk_history_rank(const struct lk_history *h, enum lk_hist_key key, size_t limit,
		    size_t **idx, size_t *n);

/* The n_addrs return addresses of site s, decoded from the history's
 * coded stacks once (most stacks of a large trace are never shown), or
 * NULL when out of memory. */
const uint64_t *lk_history_site_addrs(const struct lk_hist_site *s);

/* Symbolize site s (its frames and n_frames), once: the frames are a
 * cache kept in the history, made when a report needs them (most sites of
 * a large trace are never shown). 0 or -ENOMEM. */
int lk_history_symbolize(const struct lk_history *h, const struct lk_hist_site *s);

/* The live bytes of site i at each sample (h->sampler.due doubles, new
 * array), or NULL (no memory). */
double *lk_history_site_values(const struct lk_history *h, size_t i);

/* The statistics of site s's timeline, computed once, when a report or a
 * ranking asks (most sites of a large trace are never shown). */
const struct lk_band_stats *lk_history_site_stats(const struct lk_history *h,
						  const struct lk_hist_site *s);

#endif
