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
#include "trace/reader.h"

#define THREAD_SLOTS 1024u        /* threads whose last allocation is known */
#define PROGRESS_EVERY 65536u
#define LOOKAHEAD 16u             /* events read ahead (read_records) */
#define LOOKAHEAD_FROM 32768u     /* slots (1 MiB) from which they are */

double lk_history_seconds(const struct lk_history *h, uint64_t t)
{
	return lk_trace_seconds(&h->meta, t);
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
	if (!v)
		return -ENOMEM;
	memset(v + h->n_sites, 0, (n - h->n_sites) * sizeof(*v));
	for (size_t i = h->n_sites; i < n; i++)
		v[i].id = (uint32_t)i;
	h->sites = v;
	h->n_sites = n;
	return 0;
}

static inline int ensure_site(struct lk_history *h, uint32_t id)
{
	return id < h->n_sites ? 0 : grow_sites(h, id);
}

/* Values of the marker regression for markers [marks_seen, n_marks): the
 * site's current bytes (closed forms of the sums over a run of x). */
static void marks_catch_up(struct lk_hist_site *s, uint32_t m)
{
	if (s->marks_seen >= m)
		return;
	long double a = s->marks_seen, c = (long double)m - a, y = (long double)s->live_bytes;
	s->sy += c * y;
	s->sxy += y * (a + (long double)m - 1) * c / 2;
	s->syy += c * y * y;
	s->marks_seen = m;
}

/* Bring a site up to now before its value changes. */
static int site_touch(struct lk_history *h, struct lk_hist_site *s)
{
	if (s->changed <= h->peak_serial) {
		/* unchanged since the last peak: its value then is its value now */
		s->peak_bytes = s->live_bytes;
		s->peak_count = s->live_count;
	}
	marks_catch_up(s, h->win_marks);
	s->changed = h->serial;
	return lk_series_catch_up(&h->sampler, &s->series, (double)s->live_bytes);
}

/* ---- the window ---------------------------------------------------------- */

/* The window starts: the timelines start there too (sample 0 at t). */
static void fire_from(struct lk_history *h, uint64_t t)
{
	h->from_done = 1;
	h->from_t = t;
	h->origin = t;
	for (size_t i = 0; i < h->n_sites; i++) {
		h->sites[i].from_bytes = h->sites[i].live_bytes;
		h->sites[i].from_count = h->sites[i].live_count;
	}
}

static int by_time(const void *pa, const void *pb)
{
	const struct lk_hist_candidate *a = pa, *b = pb;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->size < b->size ? -1 : a->size > b->size;
}

/* A bounded, evenly strided sample of the window's leaked blocks. */
static int collect_candidates(struct lk_history *h)
{
	uint64_t stride = h->win_count / LK_HISTORY_SCATTER + 1, k = 0;
	size_t cap = (size_t)(h->win_count / stride + 1);
	h->candidates = calloc(cap, sizeof(*h->candidates));
	if (!h->candidates)
		return -ENOMEM;
	lk_hblocks_foreach(&h->blocks, b) {
		if (b->site == LK_HBLOCK_NO_SITE || !b->in_window)
			continue;
		if (k++ % stride == 0 && h->n_candidates < cap)
			h->candidates[h->n_candidates++] =
				(struct lk_hist_candidate){.t = b->t, .size = b->size, .site = b->site};
	}
	qsort(h->candidates, h->n_candidates, sizeof(*h->candidates), by_time);
	return 0;
}

static int order_error(struct lk_history *h)
{
	char a[300], b[300];
	return lk_error_set(LK_EUSAGE, "the window ends (%s, at %.6g s) before it starts (%s)",
			    lk_point_describe(&h->opt.to, b, sizeof(b)),
			    lk_history_seconds(h, h->to_t), lk_point_describe(&h->opt.from, a, sizeof(a)));
}

/* The window ends: the timelines end there (no sample after t). */
static int fire_to(struct lk_history *h, uint64_t t)
{
	h->to_t = t;
	if (t < h->from_t)
		return order_error(h);
	h->to_done = 1;
	lk_sampler_finish(&h->sampler, t - h->origin);
	lk_hblocks_foreach(&h->blocks, b) {
		if (b->site == LK_HBLOCK_NO_SITE)
			continue;
		struct lk_hist_site *s = &h->sites[b->site];
		if (b->in_window) {
			if (!s->win_count || b->t < s->win_first)
				s->win_first = b->t;
			if (!s->win_count || b->t > s->win_last)
				s->win_last = b->t;
			s->win_bytes += b->size;
			s->win_count++;
			h->win_bytes += b->size;
			h->win_count++;
		} else {
			s->kept_bytes += b->size;
			s->kept_count++;
		}
	}
	return collect_candidates(h);
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
		return fire_to(h, ticks_of(h, to->seconds));
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

/* A MARK or SNAPSHOT record: remember it, fire the points it names. */
static int on_name(struct lk_history *h, const struct lk_trace_record *r, int is_mark)
{
	struct lk_hist_name **v = is_mark ? &h->marks : &h->snapshots;
	size_t *n = is_mark ? &h->n_marks : &h->n_snapshots;
	struct lk_hist_name *nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n].t = r->t;
	if (!(nv[*n].text = strdup(r->text ? r->text : "")))
		return -ENOMEM;
	(*n)++;
	if (!h->from_done && name_matches(&h->opt.from, is_mark, nv[*n - 1].text))
		fire_from(h, r->t);
	/* a marker of the window, its ends included, is a point of per_mark */
	if (is_mark && h->from_done && !h->to_done)
		h->win_marks++;
	if (!h->to_done && name_matches(&h->opt.to, is_mark, nv[*n - 1].text)) {
		if (!h->from_done) {
			h->to_t = r->t;
			return order_error(h);
		}
		return fire_to(h, r->t);
	}
	return 0;
}

/* ---- events --------------------------------------------------------------- */

static void thread_alloc(struct lk_history *h, uint32_t tid, uint64_t serial)
{
	size_t i = (tid * 0x9e3779b9u) >> 22 & (THREAD_SLOTS - 1);
	h->threads[i].tid = tid;
	h->threads[i].serial = serial + 1;
}

/* Freed by the thread that allocated it, with no allocation of that thread
 * in between (heaptrack's temporary allocation): the last allocation of
 * thread tid was b (its serial; a block 2^31 allocations older would be
 * taken for it). */
static int is_temporary(const struct lk_history *h, uint32_t tid, const struct lk_hblock *b)
{
	size_t i = (tid * 0x9e3779b9u) >> 22 & (THREAD_SLOTS - 1);
	return h->threads[i].tid == tid && h->threads[i].serial &&
	       ((h->threads[i].serial - 1) & LK_HBLOCK_SERIAL_MASK) == b->serial;
}

static int in_filter(const struct lk_history *h, uint64_t size)
{
	if (!h->opt.size_min && !h->opt.size_max)
		return 1;
	return size >= h->opt.size_min && size <= h->opt.size_max;
}

static int block_gone(struct lk_history *h, const struct lk_hblock *b, uint32_t tid, int real_free)
{
	struct lk_hist_size_class *c = &h->sizes[lk_hist_size_class_of(b->size)];
	c->live_count--;
	c->live_bytes -= b->size;
	if (b->site == LK_HBLOCK_NO_SITE)
		return 0;
	struct lk_hist_site *s = &h->sites[b->site];
	int rc = site_touch(h, s);
	s->live_bytes -= b->size;
	s->live_count--;
	if (real_free) {
		s->frees++;
		if (is_temporary(h, tid, b)) {
			s->temporaries++;
			h->temporaries++;
		}
	}
	return rc;
}

static int total_touch(struct lk_history *h)
{
	return lk_series_catch_up(&h->sampler, &h->total_series, (double)h->blocks.bytes);
}

static int on_alloc(struct lk_history *h, const struct lk_trace_record *r)
{
	int rc;
	if (!r->addr)
		return 0;
	if ((rc = ensure_site(h, r->stack)) || (rc = total_touch(h)))
		return rc;
	struct lk_hblock b = {.addr = r->addr, .size = r->size, .t = r->t,
			      .site = in_filter(h, r->size) ? r->stack : LK_HBLOCK_NO_SITE,
			      .serial = h->allocs & LK_HBLOCK_SERIAL_MASK, .in_window = h->from_done},
			 old;
	h->allocs++;
	h->bytes_allocated += r->size;
	struct lk_hist_size_class *c = &h->sizes[lk_hist_size_class_of(r->size)];
	c->allocs++;
	c->bytes += r->size;
	c->live_count++;
	c->live_bytes += r->size;
	rc = lk_hblocks_put(&h->blocks, &b, &old);
	if (rc < 0)
		return rc;
	if (rc == 1) {          /* the free of the old block was not recorded */
		h->lost_frees++;
		if ((rc = block_gone(h, &old, r->tid, 0)))
			return rc;
	}
	thread_alloc(h, r->tid, h->allocs - 1);
	if (b.site != LK_HBLOCK_NO_SITE) {
		struct lk_hist_site *s = &h->sites[b.site];
		if ((rc = site_touch(h, s)))
			return rc;
		s->allocs++;
		s->bytes_allocated += r->size;
		s->live_bytes += r->size;
		s->live_count++;
	}
	if (h->blocks.bytes > h->peak_bytes) {
		h->peak_bytes = h->blocks.bytes;
		h->peak_t = r->t;
		h->peak_serial = h->serial;
	}
	return 0;
}

static int on_free(struct lk_history *h, const struct lk_trace_record *r)
{
	struct lk_hblock b;
	int rc = total_touch(h);
	if (rc)
		return rc;
	if (lk_hblocks_del(&h->blocks, r->addr, &b) != 0) {
		h->unmatched_frees++;   /* allocated before the recording started */
		return 0;
	}
	h->frees++;
	return block_gone(h, &b, r->tid, 1);
}

static int on_sample(struct lk_history *h, const struct lk_trace_record *r)
{
	int rc = lk_series_catch_up(&h->sampler, &h->rss_series, (double)h->rss_now);
	h->rss_now = r->rss;
	h->n_samples_rss++;
	if (r->rss > h->rss_peak) {
		h->rss_peak = r->rss;
		h->rss_peak_t = r->t;
	}
	return rc;
}

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

static int on_record(struct lk_history *h, const struct lk_trace_record *r)
{
	switch (r->type) {
	case LK_TRACE_ALLOC: case LK_TRACE_FREE: case LK_TRACE_MARK:
	case LK_TRACE_SNAPSHOT: case LK_TRACE_SAMPLE: {
		int rc = h->time_points ? points_at_time(h, r->t) : 0;
		if (rc || (h->to_done && h->opt.stop_at_to))
			return rc;
		if (r->t > h->t_end)
			h->t_end = r->t;
		if (h->from_done && !h->to_done)
			lk_sampler_advance(&h->sampler, r->t - h->origin);
		h->events++;
		h->serial++;
		break;
	}
	default:
		break;
	}
	switch (r->type) {
	case LK_TRACE_ALLOC: return on_alloc(h, r);
	case LK_TRACE_FREE: return on_free(h, r);
	case LK_TRACE_MARK: return on_name(h, r, 1);
	case LK_TRACE_SNAPSHOT: return on_name(h, r, 0);
	case LK_TRACE_SAMPLE: return on_sample(h, r);
	case LK_TRACE_STACK: return on_stack(h, r);
	case LK_TRACE_MODULE: return lk_symtab_add_module(&h->symtab, r->module);
	case LK_TRACE_SYMBOL: return lk_symtab_add_symbol(&h->symtab, r->addr, r->symbol, r->n_symbol);
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
		return fire_to(h, to->kind == LK_POINT_TIME ? ticks_of(h, to->seconds) : h->t_end);
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

double *lk_history_site_values(const struct lk_history *h, size_t i)
{
	size_t n = h->sampler.due;
	double *v = calloc(n ? n : 1, sizeof(*v));
	const struct lk_series_buf *b = &h->sites[i].series;
	if (v && b->v)
		for (size_t j = 0; j < n && j < b->n; j++)
			v[j] = b->v[j];
	return v;
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
	h->final_bytes = h->blocks.bytes;
	h->final_count = h->blocks.count;
	for (size_t i = 0; i < h->n_sites; i++) {
		struct lk_hist_site *s = &h->sites[i];
		if (!s->allocs)
			continue;
		if ((rc = site_touch(h, s)))
			return rc;
		per_mark(s, h->win_marks);
		double *v = lk_history_site_values(h, i);
		if (!v)
			return -ENOMEM;
		lk_band_stats_compute(h->times, v, n, &s->stats);
		free(v);
		if ((rc = lk_symtab_resolve(&h->symtab, s->addrs, s->n_addrs, &s->frames, &s->n_frames)))
			return rc;
	}
	return 0;
}

/* ---- reading ----------------------------------------------------------------- */

static int start(struct lk_history *h, FILE *f, const struct lk_hist_options *opt,
		 struct lk_trace_reader **rd)
{
	int rc;
	memset(h, 0, sizeof(*h));
	h->opt = *opt;
	lk_sampler_init(&h->sampler);
	h->threads = calloc(THREAD_SLOTS, sizeof(*h->threads));
	if (!h->threads || (rc = lk_symtab_init(&h->symtab)) || (rc = lk_hblocks_init(&h->blocks)) ||
	    (rc = ensure_site(h, 0)))
		return -ENOMEM;
	if ((rc = lk_trace_reader_open(f, 0, rd)))
		return rc;
	h->meta = *lk_trace_reader_meta(*rd);
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

/*
 * Once the live-block table outgrows the caches (LOOKAHEAD_FROM slots),
 * allocations and frees wait in a queue of LOOKAHEAD records, decoded in
 * place, so that their slots are prefetched while the records before them
 * are processed (every lookup is a cache miss otherwise; a smaller table
 * skips the queue, which costs more than it saves then). Other records
 * hold pointers into the reader: the queue is processed first, then they
 * are, in file order.
 */
struct lookahead {
	struct lk_trace_record q[LOOKAHEAD];
	unsigned head, n;
};

/* Process the oldest n queued records: 0, or the first error. */
static int lookahead_run(struct lk_history *h, struct lookahead *la, unsigned n)
{
	for (; n; n--) {
		int rc = on_record(h, &la->q[la->head]);
		la->head = (la->head + 1) % LOOKAHEAD;
		la->n--;
		if (rc || (h->to_done && h->opt.stop_at_to))
			return rc;
	}
	return 0;
}

/* Read and process every record: 0 at the END, or the reader's or the
 * analysis's first error (the records before a truncation are processed). */
static int read_records(struct lk_history *h, struct lk_trace_reader *rd)
{
	struct lookahead queue, *la = &queue;
	uint64_t count = 0;
	int rc = 0;
	la->head = la->n = 0;
	while (rc == 0 && !(h->to_done && h->opt.stop_at_to)) {
		struct lk_trace_record *rec = &la->q[(la->head + la->n) % LOOKAHEAD];
		int got = lk_trace_reader_next(rd, rec);
		if (got <= 0) {
			int rest = lookahead_run(h, la, la->n);
			rc = rest ? rest : got;
			break;
		}
		if ((rec->type == LK_TRACE_ALLOC || rec->type == LK_TRACE_FREE) &&
		    !la->n && h->blocks.cap < LOOKAHEAD_FROM) {
			rc = on_record(h, rec);   /* a table in the caches: no queue */
		} else if (rec->type == LK_TRACE_ALLOC || rec->type == LK_TRACE_FREE) {
			lk_hblocks_prefetch(&h->blocks, rec->addr);
			if (++la->n == LOOKAHEAD)
				rc = lookahead_run(h, la, 1);
		} else if (!(rc = lookahead_run(h, la, la->n)) &&
			   !(h->to_done && h->opt.stop_at_to)) {
			rc = on_record(h, rec);
		}
		if (++count % PROGRESS_EVERY == 0 && h->opt.progress)
			h->opt.progress(h->opt.progress_arg);
	}
	return rc;
}

int lk_history_read(FILE *f, const struct lk_hist_options *opt, struct lk_history *h)
{
	struct lk_trace_reader *rd = NULL;
	int rc = start(h, f, opt, &rd);
	if (rc == 0)
		rc = read_records(h, rd);
	if (rc == LK_ETRUNC && rd) {     /* not in the header: a trace cut short */
		h->truncated = 1;
		rc = warn(h, lk_error_detail());
		if (lk_trace_reader_good_time(rd) > h->t_end)
			h->t_end = lk_trace_reader_good_time(rd);
	}
	lk_trace_reader_close(rd);
	if (rc == 0)
		rc = points_at_end(h);
	if (rc == 0)
		rc = finish(h);
	return rc;
}

void lk_history_release(struct lk_history *h)
{
	for (size_t i = 0; i < h->n_sites; i++) {
		free(h->sites[i].addrs);
		free(h->sites[i].frames);
		lk_series_release(&h->sites[i].series);
	}
	free(h->sites);
	lk_symtab_release(&h->symtab);
	lk_hblocks_release(&h->blocks);
	for (size_t i = 0; i < h->n_marks; i++)
		free(h->marks[i].text);
	for (size_t i = 0; i < h->n_snapshots; i++)
		free(h->snapshots[i].text);
	free(h->marks);
	free(h->snapshots);
	free(h->candidates);
	lk_series_release(&h->total_series);
	lk_series_release(&h->rss_series);
	free(h->times);
	for (size_t i = 0; i < h->n_warnings; i++)
		free(h->warnings[i]);
	free(h->warnings);
	free(h->program);
	free(h->threads);
	memset(h, 0, sizeof(*h));
}
