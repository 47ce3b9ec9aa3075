/*
 * history.c - the one-pass analysis of a trace (see history.h): reads the
 * records, keeps the live blocks and per-site state, resolves the window's
 * points as their records or times go by, and finishes the statistics.
 * Never prints; errors are returned with their detail set.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "history/history.h"
#include "history/pass.h"
#include "trace/format.h"
#include "trace/reader.h"

#define THREAD_SLOTS 1024u        /* threads whose last allocation is known */
#define PROGRESS_EVERY 65536u
#define PEAK_LOG_MIN 8192u        /* the peak log's entries, at least (else a site's) */
#define NOT_LOGGING SIZE_MAX
#define HOT static inline __attribute__((always_inline))   /* on every event */

double lk_history_seconds(const struct lk_history *h, uint64_t t)
{
	return lk_trace_seconds(&h->meta, t);
}

uint64_t lk_history_ns(const struct lk_history *h, uint64_t t)
{
	return t * (h->meta.tick_ns ? h->meta.tick_ns : 1000);
}

static uint64_t ticks_of(const struct lk_history *h, double seconds)
{
	double tick = h->meta.tick_ns ? h->meta.tick_ns : 1000;
	double t = seconds * 1e9 / tick;
	return t >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(t);
}

static int warn(struct lk_history *h, const char *text)
{
	char **v = realloc(h->warnings, (h->n_warnings + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	h->warnings = v;
	if (!(v[h->n_warnings] = strdup(text)))
		return -ENOMEM;
	h->n_warnings++;
	return 0;
}

/* ---- sites -------------------------------------------------------------- */

static int grow_sites(struct lk_history *h, uint32_t id)
{
	size_t n = h->n_sites ? h->n_sites : 64;
	while (n <= id)
		n *= 2;
	struct lk_hist_site *v = realloc(h->sites, n * sizeof(*v));
	if (v)
		h->sites = v;
	struct lk_series_buf *sv = realloc(h->series, n * sizeof(*sv));
	if (sv)
		h->series = sv;
	size_t log_cap = n > PEAK_LOG_MIN ? n : PEAK_LOG_MIN;
	uint64_t *lv = realloc(h->peak_log, log_cap * sizeof(*lv));
	if (lv) {
		h->peak_log = lv;
		h->peak_log_cap = log_cap;
	}
	struct lk_hist_hot *hv = aligned_alloc(64, n * sizeof(*hv));
	if (!v || !sv || !lv || !hv) {
		free(hv);
		return -ENOMEM;
	}
	memset(v + h->n_sites, 0, (n - h->n_sites) * sizeof(*v));
	memset(sv + h->n_sites, 0, (n - h->n_sites) * sizeof(*sv));
	for (size_t i = h->n_sites; i < n; i++)
		v[i].id = (uint32_t)i;
	if (h->n_sites)
		memcpy(hv, h->hot, h->n_sites * sizeof(*hv));
	memset(hv + h->n_sites, 0, (n - h->n_sites) * sizeof(*hv));
	free(h->hot);
	h->hot = hv;
	h->n_sites = n;
	return 0;
}

static inline int ensure_site(struct lk_history *h, uint32_t id)
{
	return id < h->n_sites ? 0 : grow_sites(h, id);
}

/* Values of the marker regression for markers [marks_seen, n_marks): the
 * site's current bytes (closed forms of the sums over a run of x). */
static void marks_catch_up(struct lk_hist_site *s, const struct lk_hist_hot *hs, uint32_t m)
{
	if (s->marks_seen >= m)
		return;
	long double a = s->marks_seen, c = (long double)m - a, y = (long double)hs->live_bytes;
	s->sy += c * y;
	s->sxy += y * (a + (long double)m - 1) * c / 2;
	s->syy += c * y * y;
	s->marks_seen = m;
}

/* What the timelines and the marker regression of a site depend on:
 * the samples due (and the clock's doublings) and the window's markers.
 * A site whose stamp differs is brought up to date before it changes. */
static inline uint64_t stamp_of(const struct lk_history *h)
{
	return (uint64_t)h->win_marks << 32 | (uint64_t)h->sampler.gen << 16 | h->sampler.due;
}

/* Site i's timeline and marker sums brought up to the stamp (the slow
 * path of site_catch_up). */
static int site_sync(struct lk_history *h, size_t i, uint64_t stamp)
{
	struct lk_hist_site *s = &h->sites[i];
	struct lk_hist_hot *hs = &h->hot[i];
	if (h->win_marks)   /* (the site's record is not touched else) */
		marks_catch_up(s, hs, h->win_marks);
	hs->stamp = stamp;
	return lk_series_catch_up(&h->sampler, &h->series[i], (double)hs->live_bytes);
}

HOT int site_catch_up(struct lk_history *h, size_t i, uint64_t stamp)
{
	return h->hot[i].stamp == stamp ? 0 : site_sync(h, i, stamp);
}

/* ---- the peak ---------------------------------------------------------- */

/* A peak log entry: the site above bit 32, bit 31 set for an allocation
 * (the site's bytes went up by the size) and clear for a free, the size
 * (below 2^31) under it. */
#define PEAK_LOG_ALLOC (1ull << 31)

/* The sites' values at the last peak, from their values now less the n
 * changes logged since; the log is emptied and stays so until the next
 * peak. */
static void peak_settle(struct lk_history *h, size_t n)
{
	for (size_t i = 0; i < h->n_sites; i++) {
		h->hot[i].peak_bytes = h->hot[i].live_bytes;
		h->hot[i].peak_count = h->hot[i].live_count;
	}
	for (size_t k = 0; k < n; k++) {
		uint64_t e = h->peak_log[k], size = e & (PEAK_LOG_ALLOC - 1);
		struct lk_hist_hot *hs = &h->hot[e >> 32];
		if (e & PEAK_LOG_ALLOC) {
			hs->peak_bytes -= size;
			hs->peak_count--;
		} else {
			hs->peak_bytes += size;
			hs->peak_count++;
		}
	}
	h->peak_log_n = 0;
	h->peak_logging = 0;
}

/* ---- the window ---------------------------------------------------------- */

static uint64_t bytes_allocated(const struct lk_history *h);

/* The totals so far (h up to date: hot_store), as a diff's side A has them. */
static void totals_now(const struct lk_history *h, struct lk_hist_totals *out)
{
	out->peak_bytes = h->peak_bytes;
	out->peak_t = h->peak_t;
	out->allocs = 0;
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++)
		out->allocs += h->sizes[c].allocs;
	out->bytes_allocated = bytes_allocated(h);
	out->temporaries = h->temporaries;
}

/* The window starts: the timelines start there too (sample 0 at t). */
static void fire_from(struct lk_history *h, uint64_t t)
{
	totals_now(h, &h->at_from);
	h->from_done = 1;
	h->from_t = t;
	h->from_number = h->blocks.next;
	h->origin = t;
	if (h->opt.cells) {
		lk_hcells_start(&h->cells, h->from_number);
		lk_hcells_start(&h->size_cells, h->from_number);
	}
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++) {
		h->sizes[c].from_allocs = h->sizes[c].allocs;
		h->sizes[c].from_bytes = h->sizes[c].bytes;
	}
	for (size_t i = 0; i < h->n_sites; i++) {
		h->sites[i].from_bytes = h->hot[i].live_bytes;
		h->sites[i].from_count = h->hot[i].live_count;
	}
}

static int by_time(const void *pa, const void *pb)
{
	const struct lk_hist_candidate *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->site < b->site ? -1 : a->site > b->site;
}

/* The leaked block b, the k-th of the window (from 0), into the bounded,
 * evenly strided sample of them for the chart: every stride-th; when
 * the sample is full, every other one goes and the stride doubles. */
static void add_candidate(struct lk_history *h, const struct lk_hblock *b, uint64_t t,
			  uint64_t k, uint64_t *stride)
{
	if (k % *stride)
		return;
	if (h->n_candidates == LK_HISTORY_SCATTER) {
		for (size_t i = 0; i < LK_HISTORY_SCATTER / 2; i++)
			h->candidates[i] = h->candidates[2 * i];
		h->n_candidates = LK_HISTORY_SCATTER / 2;
		*stride *= 2;
		if (k % *stride)
			return;
	}
	h->candidates[h->n_candidates++] =
		(struct lk_hist_candidate){.t = t, .size = b->size, .site = b->site};
}

static int order_error(struct lk_history *h)
{
	char a[300], b[300];
	return lk_error_set(LK_EUSAGE, "the window ends (%s, at %.6g s) before it starts (%s)",
			    lk_point_describe(&h->opt.to, b, sizeof(b)),
			    lk_history_seconds(h, h->to_t), lk_point_describe(&h->opt.from, a, sizeof(a)));
}

/* The clock of the cells moved (opt.cells): 0 or -ENOMEM. */
static int cells_clock(struct lk_history *h)
{
	int rc = lk_hcells_clock(&h->cells, &h->sampler, h->blocks.next);
	return rc ? rc : lk_hcells_clock(&h->size_cells, &h->sampler, h->blocks.next);
}

/* Block b is live when the window ends: its size class counts it, and
 * the cells by size class have it (not freed in the window). */
static int size_class_at_to(struct lk_history *h, const struct lk_hblock *b)
{
	unsigned k = lk_hist_size_class_of(b->size);
	struct lk_hist_size_class *c = &h->sizes[k];
	c->to_live_count++;
	c->to_live_bytes += b->size;
	if (b->number >= h->from_number) {
		c->win_count++;
		c->win_bytes += b->size;
	}
	return h->opt.cells ? lk_hcells_add(&h->size_cells, k, b->number, b->size, 0, 0) : 0;
}

/* Block b is live at the end of the read: its size class counts it. */
static void size_class_live(struct lk_history *h, const struct lk_hblock *b)
{
	struct lk_hist_size_class *c = &h->sizes[lk_hist_size_class_of(b->size)];
	c->live_count++;
	c->live_bytes += b->size;
}

/* The window ends: the timelines end there (no sample after t). at_end:
 * no event comes after, so the same pass over the live blocks counts them
 * in their size classes too. The times of the blocks still live are
 * their allocation numbers when the times come later (recover_times). */
static int fire_to(struct lk_history *h, uint64_t t, int at_end)
{
	h->to_t = t;
	if (t < h->from_t)
		return order_error(h);
	h->to_done = 1;
	lk_sampler_finish(&h->sampler, t - h->origin);
	h->candidates = calloc(LK_HISTORY_SCATTER, sizeof(*h->candidates));
	if (!h->candidates)
		return -ENOMEM;
	int rc = h->opt.cells ? cells_clock(h) : 0;
	uint64_t stride = 1;
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++) {
		h->sizes[c].to_allocs = h->sizes[c].allocs;
		h->sizes[c].to_bytes = h->sizes[c].bytes;
	}
	lk_hblocks_foreach(&h->blocks, b) {
		if (at_end)
			size_class_live(h, &b);
		if (rc == 0)
			rc = size_class_at_to(h, &b);
		if (b.site == LK_HBLOCK_NO_SITE)
			continue;
		struct lk_hist_site *s = &h->sites[b.site];
		if (h->opt.cells && rc == 0)
			rc = lk_hcells_add(&h->cells, b.site, b.number, b.size, 0, 0);
		if (b.number >= h->from_number) {
			uint64_t bt = h->times_later ? b.number : b.t;
			add_candidate(h, &b, bt, h->win_count, &stride);
			lk_hspans_add(&h->spans, &h->cells, b.number, bt, b.size, b.site, 0);
			if (!s->win_count || bt < s->win_first)
				s->win_first = bt;
			if (!s->win_count || bt > s->win_last)
				s->win_last = bt;
			s->win_bytes += b.size;
			s->win_count++;
			h->win_bytes += b.size;
			h->win_count++;
		} else {
			s->kept_bytes += b.size;
			s->kept_count++;
		}
	}
	if (!h->times_later)
		qsort(h->candidates, h->n_candidates, sizeof(*h->candidates), by_time);
	h->sizes_live_done = at_end;
	return rc;
}

static int by_number(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return (a > b) - (a < b);
}

/* *t, an allocation number, becomes its time: in[] holds the numbers,
 * out[] their times. */
static void number_to_time(uint64_t *t, const uint64_t *in, const uint64_t *out, size_t n)
{
	const uint64_t *k = bsearch(t, in, n, sizeof(*in), by_number);
	*t = out[k - in];
}

/* The allocation times of the window's blocks that the reports show (each
 * site's first and last, the leak candidates), which held their numbers:
 * from their chunks, read again. */
static int recover_times(struct lk_history *h, struct lk_trace_reader *rd)
{
	size_t n = 0, k;
	uint64_t *in = malloc((2 * h->n_sites + h->n_candidates + h->spans.n + 1) * sizeof(*in));
	uint64_t *out = NULL;
	if (!in)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_sites; i++)
		if (h->sites[i].win_count) {
			in[n++] = h->sites[i].win_first;
			in[n++] = h->sites[i].win_last;
		}
	for (size_t i = 0; i < h->n_candidates; i++)
		in[n++] = h->candidates[i].t;
	for (size_t i = 0; i < h->spans.n; i++)
		in[n++] = h->spans.v[i].t;
	qsort(in, n, sizeof(*in), by_number);
	for (size_t i = k = 0; i < n; i++)   /* each once */
		if (!k || in[i] != in[k - 1])
			in[k++] = in[i];
	n = k;
	int rc = (out = malloc((n ? n : 1) * sizeof(*out))) ? 0 : -ENOMEM;
	size_t c = 0;   /* the chunks and the numbers, both in order */
	for (size_t i = 0; rc == 0 && i < n; i += k) {   /* k numbers of chunk c */
		while (c + 1 < h->n_chunks && h->chunks[c + 1].allocs <= in[i])
			c++;
		uint64_t end = c + 1 < h->n_chunks ? h->chunks[c + 1].allocs : UINT64_MAX;
		for (k = 1; i + k < n && in[i + k] < end; k++)
			;
		if (c >= h->n_chunks || h->chunks[c].allocs > in[i])
			rc = lk_error_set(LK_EFORMAT, "allocation %llu is in no chunk",
					  (unsigned long long)in[i]);
		else
			rc = lk_trace_reader_alloc_times(rd, h->chunks[c].offset, h->chunks[c].seq,
							 h->chunks[c].allocs, in + i, k, out + i);
	}
	for (size_t i = 0; rc == 0 && i < h->n_sites; i++)
		if (h->sites[i].win_count) {
			number_to_time(&h->sites[i].win_first, in, out, n);
			number_to_time(&h->sites[i].win_last, in, out, n);
		}
	for (size_t i = 0; rc == 0 && i < h->n_candidates; i++)
		number_to_time(&h->candidates[i].t, in, out, n);
	for (size_t i = 0; rc == 0 && i < h->spans.n; i++)
		number_to_time(&h->spans.v[i].t, in, out, n);
	if (rc == 0)
		qsort(h->candidates, h->n_candidates, sizeof(*h->candidates), by_time);
	free(in);
	free(out);
	return rc;
}

/* Time points that fire before an event at time t. */
static int points_at_time(struct lk_history *h, uint64_t t)
{
	const struct lk_point *f = &h->opt.from, *to = &h->opt.to;
	if (!h->from_done && f->kind == LK_POINT_TIME) {
		uint64_t x = ticks_of(h, f->seconds);
		if (h->opt.from_after ? t > x : t >= x)
			fire_from(h, x);
	}
	if (!h->to_done && to->kind == LK_POINT_TIME && t > ticks_of(h, to->seconds)) {
		if (!h->from_done) {
			h->to_t = ticks_of(h, to->seconds);
			return order_error(h);
		}
		return fire_to(h, ticks_of(h, to->seconds), 0);
	}
	h->time_points = (!h->from_done && f->kind == LK_POINT_TIME) ||
			 (!h->to_done && to->kind == LK_POINT_TIME);
	return 0;
}

static int name_matches(const struct lk_point *p, int is_mark, const char *text)
{
	if (p->kind != LK_POINT_NAME)
		return 0;
	if (p->which == (is_mark ? LK_POINT_SNAPSHOT : LK_POINT_MARK))
		return 0;
	return strcmp(p->name, text) == 0;
}

/* A MARK or SNAPSHOT at time t: remember it, fire the points it names. */
static int on_name(struct lk_history *h, uint64_t t, const char *text, int is_mark)
{
	struct lk_hist_name **v = is_mark ? &h->marks : &h->snapshots;
	size_t *n = is_mark ? &h->n_marks : &h->n_snapshots;
	struct lk_hist_name *nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n].t = t;
	if (!(nv[*n].text = strdup(text ? text : "")))
		return -ENOMEM;
	(*n)++;
	if (!h->from_done && name_matches(&h->opt.from, is_mark, nv[*n - 1].text))
		fire_from(h, t);
	/* a marker of the window, its ends included, is a point of per_mark */
	if (is_mark && h->from_done && !h->to_done)
		h->win_marks++;
	if (!h->to_done && name_matches(&h->opt.to, is_mark, nv[*n - 1].text)) {
		if (!h->from_done) {
			h->to_t = t;
			return order_error(h);
		}
		return fire_to(h, t, 0);
	}
	return 0;
}

/* ---- events --------------------------------------------------------------- */

/*
 * An event costs a few dozen instructions when the analysis state it
 * touches on every event lives in registers: struct hot holds copies of
 * it, loaded from the history after anything else ran (hot_load) and
 * stored back before (hot_store); never passed to a function that is not
 * inlined. `edge` is the time past which an event needs the slow path
 * (slow_begin: samples fall due, a window point at a time is pending, or
 * reading stops at the window's end).
 */
struct hot {
	uint64_t serial;           /* events so far, this one included */
	uint64_t live_bytes;
	uint64_t peak_bytes;
	uint64_t stamp;            /* stamp_of(h) */
	uint64_t edge;
	int filter;                /* a size filter is set */
	int span_times;            /* h->span_times */
	size_t log_n;              /* h->peak_log_n; NOT_LOGGING: the peak is settled */
};

/* Bytes allocated so far: the sum over the size classes. */
static uint64_t bytes_allocated(const struct lk_history *h)
{
	uint64_t n = 0;
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++)
		n += h->sizes[c].bytes;
	return n;
}

static inline size_t thread_slot(uint32_t tid)
{
	return (tid * 0x9e3779b9u) >> 22 & (THREAD_SLOTS - 1);
}

/* The last allocation of thread tid (its number + 1), 0 if not known: a
 * thread's entry in h->threads is taken by another of the same slot. */
static inline uint64_t thread_last(const struct lk_history *h, uint32_t tid)
{
	size_t ts = thread_slot(tid);
	return h->threads[ts].tid == tid ? h->threads[ts].number1 : 0;
}

static inline void thread_keep(struct lk_history *h, uint32_t tid, uint64_t last1)
{
	if (last1) {
		h->threads[thread_slot(tid)].tid = tid;
		h->threads[thread_slot(tid)].number1 = last1;
	}
}

static inline int in_filter(const struct lk_history *h, uint64_t size)
{
	return size >= h->opt.size_min && size <= h->opt.size_max;
}

static inline int total_touch(struct lk_history *h)
{
	return lk_series_catch_up(&h->sampler, &h->total_series, (double)h->live_bytes);
}

/* The sampler's next edge: samples fall due when t > origin + due * delta. */
static inline uint64_t sampler_edge(const struct lk_history *h)
{
	if (h->time_points || (h->to_done && h->opt.stop_at_to))
		return 0;
	if (!h->from_done || h->to_done)
		return UINT64_MAX;
	uint64_t span = h->sampler.gen >= 55 ? UINT64_MAX : (uint64_t)h->sampler.due << h->sampler.gen;
	return span > UINT64_MAX - h->origin ? UINT64_MAX : h->origin + span;
}

/* After anything but the fast path ran: the copies, and the total's
 * timeline brought up to the samples now due. */
static inline int hot_load(struct lk_history *h, struct hot *x)
{
	x->serial = h->events;
	x->live_bytes = h->live_bytes;
	x->peak_bytes = h->peak_bytes;
	x->stamp = stamp_of(h);
	x->log_n = h->peak_logging ? h->peak_log_n : NOT_LOGGING;
	x->edge = sampler_edge(h);
	x->filter = h->opt.size_min || h->opt.size_max;
	x->span_times = h->span_times;
	return total_touch(h);
}

/* t: the time of the latest event. */
static inline void hot_store(struct lk_history *h, const struct hot *x, uint64_t t)
{
	h->events = x->serial;
	h->live_bytes = x->live_bytes;
	h->peak_bytes = x->peak_bytes;
	h->peak_logging = x->log_n != NOT_LOGGING;
	h->peak_log_n = h->peak_logging ? x->log_n : 0;
	if (t > h->t_end)
		h->t_end = t;
}

/* An event at time t past the edge (with the history up to date): the
 * window's points, the clock of the timelines. 0, 1 when reading stops
 * here (the window's end was the point to stop at), or an error. */
static int slow_begin(struct lk_history *h, uint64_t t)
{
	int rc = h->time_points ? points_at_time(h, t) : 0;
	if (rc)
		return rc;
	if (h->to_done && h->opt.stop_at_to)
		return 1;
	if (t > h->t_end)
		h->t_end = t;
	if (h->from_done && !h->to_done) {
		lk_sampler_advance(&h->sampler, t - h->origin);
		if (h->opt.cells && (rc = cells_clock(h)))
			return rc;
	}
	h->events++;
	return 0;
}

/* Before site's bytes go up (alloc) or down by size: the change logged
 * if the peak is not settled (settled when the log is full), the site's
 * timeline brought up to the stamp. */
HOT int site_touch(struct lk_history *h, uint32_t site, struct hot *x, uint64_t size,
		   int alloc)
{
	if (x->log_n != NOT_LOGGING) {
		if (__builtin_expect(x->log_n == h->peak_log_cap || size >= PEAK_LOG_ALLOC, 0)) {
			peak_settle(h, x->log_n);
			x->log_n = NOT_LOGGING;
		} else {
			h->peak_log[x->log_n++] =
				(uint64_t)site << 32 | (alloc ? PEAK_LOG_ALLOC : 0) | size;
		}
	}
	return site_catch_up(h, site, x->stamp);
}

HOT int event_begin(struct lk_history *h, struct hot *x, uint64_t t)
{
	if (t > x->edge) {
		hot_store(h, x, t);
		int rc = slow_begin(h, t);
		return rc ? rc : hot_load(h, x);
	}
	x->serial++;
	return 0;
}

/* Allocation `number` of the trace (stack id < h->n_sites) by a thread
 * whose last allocation is *last1 (its number + 1; see struct thread). */
HOT int on_alloc(struct lk_history *h, struct hot *x, uint64_t t, uint64_t *last1,
		 uint32_t stack, uint64_t size, uint64_t number)
{
	uint32_t site = !x->filter || in_filter(h, size) ? stack : LK_HBLOCK_NO_SITE;
	x->live_bytes += size;
	struct lk_hist_size_class *c = &h->sizes[lk_hist_size_class_of(size)];
	c->allocs++;
	c->bytes += size;
	int rc = lk_hblocks_add(&h->blocks, number, size, t, site);
	if (rc)
		return rc;
	*last1 = number + 1;
	int peak = x->live_bytes > x->peak_bytes;
	if (peak) {
		/* a new peak, after this event: the sites' values then are
		 * their values after it, the changes before it forgotten */
		x->peak_bytes = x->live_bytes;
		h->peak_t = t;
		x->log_n = 0;
	}
	if (site != LK_HBLOCK_NO_SITE) {
		struct lk_hist_hot *hs = &h->hot[site];
		/* (at a new peak, nothing to log) */
		if ((rc = peak ? site_catch_up(h, site, x->stamp) : site_touch(h, site, x, size, 1)))
			return rc;
		hs->allocs++;
		hs->bytes_allocated += size;
		hs->live_bytes += size;
		hs->live_count++;
	}
	return 0;
}

/* The block of allocation `number` (size, site) is gone: freed by a
 * thread whose last allocation is last1 (number + 1), or replaced (a 1.0
 * trace's lost free); bt is its allocation time, or its number when the
 * times come later. Freed by the thread that allocated it with no
 * allocation of that thread in between, it was a temporary allocation
 * (heaptrack's). */
HOT int block_gone(struct lk_history *h, struct hot *x, uint64_t size, uint32_t site,
		   uint64_t last1, uint64_t number, uint64_t bt, int real_free)
{
	x->live_bytes -= size;
	int win = h->opt.cells && h->from_done && !h->to_done, rc;
	if (win && (rc = lk_hcells_add(&h->size_cells, lk_hist_size_class_of(size), number, size, 1, 0)))
		return rc;
	if (site == LK_HBLOCK_NO_SITE)
		return 0;
	struct lk_hist_hot *hs = &h->hot[site];
	rc = site_touch(h, site, x, size, 0);
	if (win && rc == 0) {
		rc = lk_hcells_add(&h->cells, site, number, size, 1, real_free && last1 == number + 1);
		lk_hspans_add(&h->spans, &h->cells, number, bt, size, site, 1);
	}
	hs->live_bytes -= size;
	hs->live_count--;
	if (!real_free) {
		h->sites[site].lost_frees++;   /* its frees are counted at the end */
	} else if (last1 == number + 1) {
		hs->temporaries++;
		h->temporaries++;
	}
	return rc;
}

/* The free of allocation `number`: 0, 1 when that block is not live, or
 * an error. */
HOT int on_free(struct lk_history *h, struct hot *x, uint64_t last1, uint64_t number)
{
	uint64_t size, bt = number;
	uint32_t site;
	if (__builtin_expect(x->span_times, 0))
		bt = lk_hblocks_time(&h->blocks, number);
	if (!lk_hblocks_take(&h->blocks, number, &size, &site))
		return 1;
	return block_gone(h, x, size, site, last1, number, bt, 1);
}

static int on_sample(struct lk_history *h, uint64_t t, uint64_t rss)
{
	int rc = lk_series_catch_up(&h->sampler, &h->rss_series, (double)h->rss_now);
	/* a sample of the timeline holds the largest RSS of its interval: a
	 * max envelope, so that a peak between two samples shows */
	uint64_t stamp = (uint64_t)h->sampler.gen << 32 | h->sampler.due;
	if (!h->n_samples_rss || stamp != h->rss_stamp || rss > h->rss_now)
		h->rss_now = rss;
	h->rss_stamp = stamp;
	h->n_samples_rss++;
	if (rss > h->rss_peak) {
		h->rss_peak = rss;
		h->rss_peak_t = t;
	}
	return rc;
}

/* A stack record (when the reader does not hand STACKS chunks whole). */
static int on_stack(struct lk_history *h, const struct lk_trace_record *r)
{
	int rc = ensure_site(h, r->stack);
	if (rc)
		return rc;
	struct lk_hist_site *s = &h->sites[r->stack];
	uint64_t *a = malloc((r->n_frames ? r->n_frames : 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	memcpy(a, r->frames, r->n_frames * sizeof(*a));
	free(s->addrs);
	s->addrs = a;
	s->n_addrs = r->n_frames;
	return 0;
}

/* A STACKS chunk: its coded stacks are kept; each site notes where its
 * own is, decoded when a report asks (lk_history_site_addrs). */
static int on_stacks(struct lk_history *h, struct lk_trace_reader *rd, struct lk_trace_stacks *st)
{
	size_t len = (size_t)(st->end - st->p);
	uint8_t **v = realloc(h->stack_chunks, (h->n_stack_chunks + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	h->stack_chunks = v;
	int rc = ensure_site(h, st->first + st->count - 1);
	if (rc)
		return rc;
	/* the reader's buffer, cut to the stacks (it stays in place) */
	uint8_t *buf = lk_trace_reader_take_chunk(rd);
	size_t at = (size_t)(st->p - buf);
	uint8_t *kept = realloc(buf, at + len);
	v[h->n_stack_chunks++] = kept = kept ? kept : buf;
	st->p = kept + at;
	st->end = kept + at + len;
	struct lk_trace_stack_ref ref;
	const char *what;
	while ((rc = lk_trace_stacks_next(st, &ref, &what)) == 1) {
		struct lk_hist_site *s = &h->sites[ref.id];
		s->stack = ref;
		s->n_addrs = ref.n;
	}
	if (rc < 0)
		return lk_trace_reader_bad(rd, st->taken - 1, what);
	return lk_trace_reader_stacks_done(rd, st);
}

/* An event record (1.0 traces: every event comes so). */
static int event_record(struct lk_history *h, const struct lk_trace_record *r)
{
	struct hot x;
	uint64_t size;
	uint32_t site;
	uint64_t last1 = thread_last(h, r->tid);
	int rc = hot_load(h, &x);
	if (rc || (rc = event_begin(h, &x, r->t)))
		return rc;
	switch (r->type) {
	case LK_TRACE_ALLOC:
		if (!r->addr)
			break;
		uint64_t bt = r->replaces - 1;
		if (r->replaces && h->span_times)
			bt = lk_hblocks_time(&h->blocks, r->replaces - 1);
		if (r->replaces && lk_hblocks_take(&h->blocks, r->replaces - 1, &size, &site)) {
			h->lost_frees++;   /* its free was not recorded */
			if ((rc = block_gone(h, &x, size, site, last1, r->replaces - 1, bt, 0)))
				return rc;
		}
		if ((rc = ensure_site(h, r->stack)) ||
		    (rc = on_alloc(h, &x, r->t, &last1, r->stack, r->size, r->serial)))
			return rc;
		thread_keep(h, r->tid, last1);
		break;
	case LK_TRACE_FREE:
		/* a block the trace never had (1.0): allocated before it started */
		if (r->serial == LK_TRACE_NO_SERIAL || (rc = on_free(h, &x, last1, r->serial)) == 1)
			h->unmatched_frees++;
		else if (rc)
			return rc;
		break;
	default:
		hot_store(h, &x, r->t);
		if (r->type == LK_TRACE_SAMPLE)
			return on_sample(h, r->t, r->rss);
		return on_name(h, r->t, r->text, r->type == LK_TRACE_MARK);
	}
	hot_store(h, &x, r->t);
	return 0;
}

/* The first record of each CLASSES chunk (the same in each). */
static int on_scan(struct lk_hist_verdicts *v, const struct lk_trace_scan *scan)
{
	if (v->known)
		return 0;
	v->known = 1;
	v->scanned = scan->state == LK_TRACE_SCANNED;
	if ((scan->note && !(v->note = strdup(scan->note))) ||
	    (scan->heap_note && !(v->heap_note = strdup(scan->heap_note))))
		return -ENOMEM;
	return 0;
}

static int on_verdict(struct lk_hist_verdicts *v, const struct lk_trace_record *r)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 1024;
		struct lk_trace_block_verdict *n = realloc(v->v, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		v->v = n;
		v->cap = cap;
	}
	v->v[v->n++] = (struct lk_trace_block_verdict){.number = r->serial, .leader = r->stack,
							 .cls = (uint8_t)r->cls};
	return 0;
}

/* One record; 1 when reading stops here. */
static int on_record(struct lk_history *h, const struct lk_trace_record *r)
{
	switch (r->type) {
	case LK_TRACE_ALLOC: case LK_TRACE_FREE: case LK_TRACE_MARK:
	case LK_TRACE_SNAPSHOT: case LK_TRACE_SAMPLE:
		return event_record(h, r);
	case LK_TRACE_STACK: return on_stack(h, r);
	case LK_TRACE_MODULE: return lk_symtab_add_module(&h->symtab, r->module);
	case LK_TRACE_SYMBOL: return lk_symtab_add_symbol(&h->symtab, r->addr, r->symbol, r->n_symbol);
	case LK_TRACE_SCAN: return on_scan(&h->verdicts, r->scan);
	case LK_TRACE_CLASS: return on_verdict(&h->verdicts, r);
	default: return 0;
	}
}

/* ---- the end ---------------------------------------------------------------- */

/* "markers: a, b (and 3 more); snapshots: c" into buf. */
static void list_names(const struct lk_history *h, char *buf, size_t size)
{
	size_t k = 0;
	const struct lk_hist_name *v[2] = {h->marks, h->snapshots};
	size_t n[2] = {h->n_marks, h->n_snapshots};
	const char *what[2] = {"markers", "snapshots"};
	buf[0] = 0;
	for (int j = 0; j < 2; j++) {
		k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s%s:", j ? "; " : "", what[j]);
		if (!n[j])
			k += (size_t)snprintf(buf + k, k < size ? size - k : 0, " none");
		size_t shown = 0;
		for (size_t i = 0; i < n[j] && k < size; i++) {
			int dup = 0;
			for (size_t p = 0; p < i && !dup; p++)
				dup = strcmp(v[j][p].text, v[j][i].text) == 0;
			if (dup)
				continue;
			if (shown == 8) {
				k += (size_t)snprintf(buf + k, size - k, " ...");
				break;
			}
			k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s '%s'",
					      shown ? "," : "", v[j][i].text);
			shown++;
		}
	}
}

static int unresolved(const struct lk_history *h, const struct lk_point *p)
{
	char names[400], what[300];
	list_names(h, names, sizeof(names));
	return lk_error_set(LK_ENOTFOUND, "no %s in the trace (%s)",
			    lk_point_describe(p, what, sizeof(what)), names);
}

/* Points still pending at the end of the trace. */
static int points_at_end(struct lk_history *h)
{
	const struct lk_point *f = &h->opt.from, *to = &h->opt.to;
	if (!h->from_done) {
		if (f->kind == LK_POINT_NAME)
			return unresolved(h, f);
		if (f->kind == LK_POINT_TIME) {
			char what[64];
			return lk_error_set(LK_EUSAGE, "the window starts at %s, after the end of the "
					    "trace (%.6g s)", lk_point_describe(f, what, sizeof(what)),
					    lk_history_seconds(h, h->t_end));
		}
		fire_from(h, h->t_end);
	}
	if (!h->to_done) {
		if (to->kind == LK_POINT_NAME)
			return unresolved(h, to);
		return fire_to(h, to->kind == LK_POINT_TIME ? ticks_of(h, to->seconds) : h->t_end,
			       1);
	}
	return 0;
}

static void per_mark(struct lk_hist_site *s, size_t m)
{
	s->per_mark = s->per_mark_fit = 0;
	if (m < 2)
		return;
	long double n = (long double)m, sx = n * (n - 1) / 2, sxx = (n - 1) * n * (2 * n - 1) / 6;
	long double vx = n * sxx - sx * sx, cov = n * s->sxy - sx * s->sy;
	long double vy = n * s->syy - s->sy * s->sy;
	s->per_mark = (double)(cov / vx);
	s->per_mark_fit = vy > 0 ? (double)(cov * cov / (vx * vy)) : 0;
	if (s->per_mark_fit > 1)
		s->per_mark_fit = 1;
}

const uint64_t *lk_history_site_addrs(const struct lk_hist_site *site)
{
	struct lk_hist_site *s = (struct lk_hist_site *)site;   /* the cache */
	if (s->addrs || !s->n_addrs)
		return s->addrs;
	if ((s->addrs = malloc(s->n_addrs * sizeof(*s->addrs))))
		lk_trace_stack_frames(&s->stack, s->addrs);
	return s->addrs;
}

int lk_history_symbolize(const struct lk_history *h, const struct lk_hist_site *site)
{
	struct lk_hist_site *s = (struct lk_hist_site *)site;   /* the cache */
	if (s->frames || !s->n_addrs)
		return 0;
	const uint64_t *addrs = lk_history_site_addrs(s);
	if (!addrs)
		return -ENOMEM;
	return lk_symtab_resolve(&h->symtab, addrs, s->n_addrs, &s->frames, &s->n_frames);
}

/* The h->sampler.due values of site s into v. */
static void values_of(const struct lk_history *h, const struct lk_hist_site *s, double *v)
{
	const struct lk_series_buf *b = &s->series;
	size_t n = h->sampler.due, j = 0;
	for (; b->v && j < n && j < b->n; j++)
		v[j] = b->v[j];
	for (; j < n; j++)
		v[j] = 0;
}

double *lk_history_site_values(const struct lk_history *h, size_t i)
{
	double *v = malloc((h->sampler.due ? h->sampler.due : 1) * sizeof(*v));
	if (v)
		values_of(h, &h->sites[i], v);
	return v;
}

const struct lk_band_stats *lk_history_site_stats(const struct lk_history *h,
						  const struct lk_hist_site *site)
{
	struct lk_hist_site *s = (struct lk_hist_site *)site;   /* the cache */
	if (!s->stats_ready) {
		s->stats = (struct lk_band_stats){0};
		if (s->series.v) {     /* else every sample is 0, and so are the stats */
			double v[LK_SAMPLER_POINTS];
			values_of(h, s, v);
			lk_band_stats_compute(h->times, v, h->sampler.due, &s->stats);
		}
		s->stats_ready = 1;
	}
	return &s->stats;
}

static int finish(struct lk_history *h)
{
	int rc;
	if ((rc = total_touch(h)) ||
	    (rc = lk_series_catch_up(&h->sampler, &h->rss_series, (double)h->rss_now)))
		return rc;
	size_t n = h->sampler.due;
	h->times = calloc(n ? n : 1, sizeof(*h->times));
	if (!h->times)
		return -ENOMEM;
	for (size_t j = 0; j < n; j++)
		h->times[j] = lk_history_seconds(h, h->origin + (uint64_t)j * h->sampler.delta);
	if (h->opt.cells) {
		lk_hcells_sort(&h->cells);
		lk_hcells_sort(&h->size_cells);
		lk_hspans_settle(&h->spans, &h->cells);
	}
	h->final_bytes = h->live_bytes;
	h->final_count = lk_hblocks_count(&h->blocks);
	/* every block added is live now, freed, or was replaced (lost frees) */
	for (unsigned c = 0; c < LK_HIST_SIZE_CLASSES; c++)
		h->allocs += h->sizes[c].allocs;
	h->bytes_allocated = bytes_allocated(h);
	h->frees = h->allocs - h->final_count - h->lost_frees;
	if (!h->sizes_live_done)   /* else the window's end did it, at the end */
		lk_hblocks_foreach(&h->blocks, b)
			size_class_live(h, &b);
	if (h->peak_logging)
		peak_settle(h, h->peak_log_n);
	uint64_t stamp = stamp_of(h);
	for (size_t i = 0; i < h->n_sites; i++) {
		struct lk_hist_site *s = &h->sites[i];
		const struct lk_hist_hot *hs = &h->hot[i];
		if (!hs->allocs)
			continue;
		if ((rc = site_catch_up(h, i, stamp)))
			return rc;
		s->live_bytes = hs->live_bytes;
		s->live_count = hs->live_count;
		s->allocs = hs->allocs;
		s->bytes_allocated = hs->bytes_allocated;
		s->peak_bytes = hs->peak_bytes;
		s->peak_count = hs->peak_count;
		s->frees = s->allocs - s->live_count - s->lost_frees;
		s->temporaries = hs->temporaries;
		s->series = h->series[i];
		h->series[i] = (struct lk_series_buf){0};
		per_mark(s, h->win_marks);
	}
	return 0;
}

/* ---- reading ----------------------------------------------------------------- */

int lk_hist_begin(struct lk_history *h, FILE *f, const struct lk_hist_options *opt, int follow,
		  struct lk_trace_reader **rd)
{
	int rc;
	memset(h, 0, sizeof(*h));
	h->opt = *opt;
	lk_sampler_init(&h->sampler);
	if (opt->cells && ((rc = lk_hcells_init(&h->cells)) || (rc = lk_hcells_init(&h->size_cells))))
		return rc;
	h->threads = calloc(THREAD_SLOTS, sizeof(*h->threads));
	if (!h->threads || (rc = lk_symtab_init(&h->symtab)) || (rc = ensure_site(h, 0)))
		return -ENOMEM;
	if ((rc = lk_trace_reader_open(f, opt->reader_flags, rd)))
		return rc;
	h->meta = *lk_trace_reader_meta(*rd);
	h->times_later = !follow && h->meta.version >= 2 && ftello(f) >= 0;
	if (lk_hblocks_init(&h->blocks, !h->times_later))
		return -ENOMEM;
	/* the spans' times: of the blocks freed, from the trace read again, or
	 * (followed: as a read of the file would have them) from the blocks,
	 * which keep them; a trace read once (a pipe, or 1.0) has none */
	h->span_times = opt->cells && follow && h->meta.version >= 2;
	if (opt->cells && (h->times_later || h->span_times) && lk_hspans_init(&h->spans))
		return -ENOMEM;
	h->program = malloc(h->meta.cmdline_len + 1);
	if (!h->program)
		return -ENOMEM;
	memcpy(h->program, h->meta.cmdline, h->meta.cmdline_len);
	for (size_t i = 0; i < h->meta.cmdline_len; i++)
		if (!h->program[i])
			h->program[i] = ' ';
	h->program[h->meta.cmdline_len] = 0;
	h->meta.cmdline = NULL;
	if (opt->from.kind == LK_POINT_START || (opt->from.kind == LK_POINT_TIME &&
						 opt->from.seconds == 0 && !opt->from_after))
		fire_from(h, 0);
	h->time_points = opt->from.kind == LK_POINT_TIME || opt->to.kind == LK_POINT_TIME;
	return 0;
}

/* The thread table of an EVENTS chunk (format.h): the 3 threads last
 * seen, most recent first. */
struct threads {
	uint32_t tid[LK_TRACE_THREADS];
	int n;
};

/* The thread of tag code `code` (not 0: the previous event's), a literal
 * tid for LK_TAG_THREAD_LITERAL; 0 or -1 (a code for an empty entry). */
static int thread_of(struct threads *th, unsigned code, uint64_t literal, uint32_t *tid)
{
	int i;
	if (code == LK_TAG_THREAD_LITERAL) {
		if (th->n < LK_TRACE_THREADS)
			th->n++;
		i = th->n - 1;
		th->tid[i] = (uint32_t)literal;
	} else if ((i = (int)code) >= th->n) {
		return -1;
	}
	uint32_t t = th->tid[i];
	for (; i > 0; i--)
		th->tid[i] = th->tid[i - 1];
	th->tid[0] = *tid = t;
	return 0;
}

#define BAD(what) return lk_trace_reader_bad(rd, INDEX, what)
#define INDEX k   /* the event's index in its chunk */
#define NEXT(p, stream, v) do { \
	if (lk_get_varint_padded(&(p), ev->e[stream], &(v))) \
		BAD("bad varint"); \
} while (0)

/* A MARK, SNAPSHOT or SAMPLE at time t of an EVENTS chunk, its data read
 * from *data (the history up to date). */
static int walk_other(struct lk_history *h, unsigned kind, uint64_t t, const uint8_t **data,
		      const uint8_t *end, struct lk_trace_reader *rd, uint32_t k)
{
	char text[LK_TRACE_TEXT_MAX + 1];
	uint64_t v[3];
	int rc, n = kind == LK_EVK_SAMPLE ? 3 : 1;
	for (int i = 0; i < n; i++)
		if (lk_get_varint(data, end, &v[i]))
			return lk_trace_reader_bad(rd, k, "bad varint");
	if (kind != LK_EVK_SAMPLE) {
		if (v[0] > LK_TRACE_TEXT_MAX || v[0] > (uint64_t)(end - *data))
			return lk_trace_reader_bad(rd, k, "text too long");
		memcpy(text, *data, v[0]);
		text[v[0]] = 0;
		*data += v[0];
	}
	if ((rc = slow_begin(h, t)))
		return rc;
	return kind == LK_EVK_SAMPLE ? on_sample(h, t, v[0]) : on_name(h, t, text, kind == LK_EVK_MARK);
}

/* Tags of the plain events: an allocation or free by the thread of the
 * event before, a time step in the tag. Once a chunk has named its first
 * thread they need none of the checks of the others. */
#define PLAIN(g) (LK_TAG_THREAD(g) == 0 && LK_TAG_DT(g) != LK_TAG_DT_VARINT && \
		  LK_TAG_KIND(g) <= LK_EVK_FREE_NEXT)
#define PLAIN4(g) PLAIN(g), PLAIN((g) + 1), PLAIN((g) + 2), PLAIN((g) + 3)
#define PLAIN16(g) PLAIN4(g), PLAIN4((g) + 4), PLAIN4((g) + 8), PLAIN4((g) + 12)
#define PLAIN64(g) PLAIN16(g), PLAIN16((g) + 16), PLAIN16((g) + 32), PLAIN16((g) + 48)
static const uint8_t plain_tags[256] = {PLAIN64(0), PLAIN64(64), PLAIN64(128), PLAIN64(192)};
static const uint8_t no_plain_tags[256];

/* What a tag may ask beyond a plain event, kept out of the event loop's
 * registers: the stream of long time steps, the thread table. */
struct careful {
	const uint8_t *times, *tids;
	const uint8_t *times_end, *tids_end;
	struct threads th;
	uint32_t tid;
	const char *bad;      /* what is wrong, or NULL */
};

struct careful_out {
	uint64_t t, last1;
};

/* The careful way for a tag at time t, by the thread whose last
 * allocation is last1: its time step, a thread it names (then last1 is
 * that thread's). c->bad says what is wrong, if anything. */
static __attribute__((noinline)) struct careful_out
careful_tag(struct lk_history *h, struct careful *c, unsigned tag, uint64_t t, uint64_t last1)
{
	unsigned kind = LK_TAG_KIND(tag), code = LK_TAG_THREAD(tag);
	uint64_t dt = LK_TAG_DT(tag), v = 0;
	struct careful_out out = {t, last1};
	if (dt == LK_TAG_DT_VARINT) {
		if (lk_get_varint_padded(&c->times, c->times_end, &v))
			return c->bad = "bad varint", out;
		if ((dt = v + LK_TAG_DT_VARINT) < v || t + dt < t)
			return c->bad = "time overflow", out;
	}
	out.t = t + dt;
	if (kind == LK_EVK_SAMPLE) {
		if (code)
			c->bad = "sample with a thread";
	} else if (code) {
		v = 0;
		if (code == LK_TAG_THREAD_LITERAL) {
			if (lk_get_varint_padded(&c->tids, c->tids_end, &v))
				return c->bad = "bad varint", out;
			if (v > UINT32_MAX)
				return c->bad = "thread id out of range", out;
		}
		if (c->th.n)
			thread_keep(h, c->tid, last1);
		if (thread_of(&c->th, code, v, &c->tid))
			return c->bad = "thread table entry not set", out;
		out.last1 = thread_last(h, c->tid);
	} else if (!c->th.n) {
		c->bad = "thread table entry not set";
	}
	return out;
}

/*
 * The events of one EVENTS chunk of a 2.0 trace, decoded here straight
 * into the handlers (no record in between, no address: frees name their
 * allocation by number). Checks what indexes memory; the reader checks
 * the rest at the end of the chunk. 0, 1 when reading stops, or an error.
 */
static int walk_events(struct lk_history *h, struct lk_trace_reader *rd,
		       const struct lk_trace_events *ev)
{
	/* one pointer each, kept in registers, but those of the careful way */
	const uint8_t *tags = ev->s[LK_EVS_TAG], *stacks = ev->s[LK_EVS_STACK];
	const uint8_t *sizes = ev->s[LK_EVS_SIZE], *refs = ev->s[LK_EVS_REF];
	const uint8_t *data = ev->s[LK_EVS_DATA];
	struct careful c = {.times = ev->s[LK_EVS_TIME], .tids = ev->s[LK_EVS_TID],
			    .times_end = ev->e[LK_EVS_TIME], .tids_end = ev->e[LK_EVS_TID]};
	struct lk_trace_events_end end;
	uint64_t others = 0, bytes_before = bytes_allocated(h);
	struct hot x;
	uint64_t t = ev->t_first, number = ev->allocs, guess = ev->allocs, v, stack, size;
	uint64_t last1 = 0;         /* the last allocation of thread c.tid (number + 1) */
	int rc = hot_load(h, &x);
	/* one tag an event (the reader checked); times past the chunk's last
	 * are damage, found at its end (they never go back) */
	const uint8_t *plain = no_plain_tags;  /* plain_tags once a thread is set */
	/* the event's index, from the tag just read (no counter to keep) */
#undef INDEX
#define INDEX ((uint32_t)(tags - ev->s[LK_EVS_TAG] - 1))
	for (const uint8_t *tags_end = tags + ev->count; rc == 0 && tags < tags_end;) {
		unsigned tag = *tags++, kind = LK_TAG_KIND(tag);
		if (plain[tag]) {
			t += LK_TAG_DT(tag);
		} else {
			struct careful_out out = careful_tag(h, &c, tag, t, last1);
			if (c.bad)
				BAD(c.bad);
			t = out.t;
			last1 = out.last1;
			if (c.th.n)
				plain = plain_tags;
		}
		switch (kind) {
		case LK_EVK_ALLOC:
			NEXT(stacks, LK_EVS_STACK, stack);
			NEXT(sizes, LK_EVS_SIZE, size);
			if (stack > ev->n_stacks)
				BAD("stack id out of range");
			if (!(rc = event_begin(h, &x, t)))
				rc = on_alloc(h, &x, t, &last1, (uint32_t)stack, size, number++);
			break;
		case LK_EVK_FREE:
		case LK_EVK_FREE_NEXT:
			NEXT(refs, LK_EVS_REF, v);
			guess = kind == LK_EVK_FREE ? number - 1 - v : guess + lk_unzigzag(v);
			if (guess >= number)
				BAD("free of an allocation not made yet");
			if (!(rc = event_begin(h, &x, t)) && (rc = on_free(h, &x, last1, guess++)) == 1)
				BAD("free of a block freed before");
			break;
		case LK_EVK_SAMPLE: case LK_EVK_MARK: case LK_EVK_SNAPSHOT:
			hot_store(h, &x, t);
			if (!(rc = walk_other(h, kind, t, &data, ev->e[LK_EVS_DATA], rd, INDEX)))
				rc = hot_load(h, &x);
			others++;
			break;
		default:
			BAD("unknown event kind");
		}
	}
	hot_store(h, &x, t);   /* (rc 1: the event at t stopped the reading, and is counted) */
	if (c.th.n)
		thread_keep(h, c.tid, last1);
	if (h->opt.progress)
		h->opt.progress(h->opt.progress_arg);
	if (rc)
		return rc;
	const uint8_t *stop[LK_EVS_COUNT] = {tags, c.times, c.tids, stacks, sizes, NULL, refs, data};
	memcpy(end.s, stop, sizeof(stop));
	end.t = t;
	end.allocs = number - ev->allocs;       /* the chunk's */
	end.frees = ev->count - end.allocs - others;
	end.bytes_allocated = bytes_allocated(h) - bytes_before;
	return lk_trace_reader_events_done(rd, &end);
}
#undef INDEX
#undef NEXT
#undef BAD

/* An EVENTS chunk into the index that recover_times() reads again (when
 * the times come later). */
static int add_chunk(struct lk_history *h, const struct lk_trace_events *ev)
{
	if (h->n_chunks == h->cap_chunks) {
		size_t cap = h->cap_chunks ? 2 * h->cap_chunks : 64;
		struct lk_hist_chunk *v = realloc(h->chunks, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		h->chunks = v;
		h->cap_chunks = cap;
	}
	h->chunks[h->n_chunks++] = (struct lk_hist_chunk){ev->offset, ev->allocs, ev->seq};
	return 0;
}

/* Read and process every record: 0 at the END or where reading stops, or
 * the reader's or the analysis's first error (the records before a
 * truncation are processed). */
int lk_hist_records(struct lk_history *h, struct lk_trace_reader *rd)
{
	struct lk_trace_record rec;
	struct lk_trace_events ev;
	struct lk_trace_stacks st;
	uint64_t count = 0;
	int rc;
	for (;;) {
		int got = lk_trace_reader_next_chunk(rd, &rec, &ev, &st);
		if (got <= 0)
			return got;
		if (got == 2) {
			rc = h->times_later ? add_chunk(h, &ev) : 0;
			if (rc == 0)
				rc = walk_events(h, rd, &ev);
		} else if (got == 3) {
			rc = on_stacks(h, rd, &st);
		} else {
			rc = on_record(h, &rec);
			if (++count % PROGRESS_EVERY == 0 && h->opt.progress)
				h->opt.progress(h->opt.progress_arg);
		}
		if (rc)
			return rc == 1 ? 0 : rc;
	}
}

int lk_hist_cut(struct lk_history *h, const char *detail, uint64_t good_t)
{
	h->truncated = 1;
	if (good_t > h->t_end)
		h->t_end = good_t;
	return warn(h, detail);
}

int lk_hist_end(struct lk_history *h, struct lk_trace_reader *rd)
{
	int rc = points_at_end(h);
	if (rc == 0 && h->times_later)
		rc = recover_times(h, rd);
	return rc ? rc : finish(h);
}

int lk_history_read(FILE *f, const struct lk_hist_options *opt, struct lk_history *h)
{
	struct lk_trace_reader *rd = NULL;
	int rc = lk_hist_begin(h, f, opt, 0, &rd);
	if (rc == 0)
		rc = lk_hist_records(h, rd);
	if (rc == LK_ETRUNC && rd)     /* not in the header: a trace cut short */
		rc = lk_hist_cut(h, lk_error_detail(), lk_trace_reader_good_time(rd));
	if (rc == 0)
		rc = lk_hist_end(h, rd);
	lk_trace_reader_close(rd);
	return rc;
}

/* What a snapshot of a followed history borrows (history/follow.h). */
static void release_lent(struct lk_history *h)
{
	free(h->peak_log);
	for (size_t i = 0; i < h->n_stack_chunks; i++)
		free(h->stack_chunks[i]);
	free(h->stack_chunks);
	lk_symtab_release(&h->symtab);
	lk_hblocks_release(&h->blocks);
	for (size_t i = 0; i < h->n_marks; i++)
		free(h->marks[i].text);
	for (size_t i = 0; i < h->n_snapshots; i++)
		free(h->snapshots[i].text);
	free(h->marks);
	free(h->snapshots);
	free(h->verdicts.v);
	free(h->verdicts.note);
	free(h->verdicts.heap_note);
}

void lk_history_release(struct lk_history *h)
{
	for (size_t i = 0; h->sites && i < h->n_sites; i++) {
		free(h->sites[i].addrs);
		free(h->sites[i].frames);
		lk_series_release(&h->sites[i].series);
		if (h->series)   /* the read did not finish */
			lk_series_release(&h->series[i]);
	}
	free(h->sites);
	free(h->hot);
	free(h->series);
	free(h->chunks);
	if (!h->borrowed)
		release_lent(h);
	free(h->candidates);
	lk_series_release(&h->total_series);
	lk_series_release(&h->rss_series);
	lk_hcells_release(&h->cells);
	lk_hcells_release(&h->size_cells);
	lk_hspans_release(&h->spans);
	free(h->times);
	for (size_t i = 0; i < h->n_warnings; i++)
		free(h->warnings[i]);
	free(h->warnings);
	free(h->program);
	free(h->threads);
	memset(h, 0, sizeof(*h));
}
