/*
 * profile.c - build a timeline from a GHC eventlog heap profile (profile.h).
 *
 * One pass over the events with the streaming reader; the builder keeps
 * bands (hashed by key) and their values over the censuses (census.h, in
 * bounded memory), the IPE and cost-centre tables for joining labels,
 * series decimated to a bounded size, and markers; the timeline is
 * finished as a .hp file's is (heap_timeline.h). Never prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/array.h"
#include "common/error.h"
#include "eventlog/band_index.h"
#include "eventlog/bigendian.h"
#include "eventlog/census.h"
#include "eventlog/heap_timeline.h"
#include "eventlog/infotables.h"
#include "eventlog/profile.h"
#include "eventlog/reader.h"

/* ---- small helpers ---------------------------------------------------- */

static char *dupn(const void *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* Next NUL-terminated string of [*p, end): returns its length and start;
 * without a NUL it runs to end. */
static const char *strz(const uint8_t **p, const uint8_t *end, size_t *n)
{
	const uint8_t *s = *p;
	const uint8_t *z = memchr(s, 0, (size_t)(end - s));
	*n = (size_t)((z ? z : end) - s);
	*p = z ? z + 1 : end;
	return (const char *)s;
}

/* Raw text payload (no terminator, maybe a stray trailing NUL). */
static char *text_payload(const uint8_t *p, size_t len)
{
	const uint8_t *z = memchr(p, 0, len);
	return dupn(p, z ? (size_t)(z - p) : len);
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* ---- builder state ---------------------------------------------------- */

struct ipe {
	uint64_t addr;
	char *f[6];       /* table name, closure type, type, label, module, srcloc */
};

struct cc {
	uint32_t id;
	char *label, *module, *srcloc;
};

/* A series kept to at most LK_PROFILE_SERIES_MAX points: when full, pairs
 * of neighbours merge (the larger value stays) and later points are taken
 * one per `stride`, the largest of each stride. */
struct dseries {
	double *t, *v;
	size_t n, stride, pending;
	uint64_t pt;      /* ns */
	double pv;
};

struct builder {
	const struct lk_profile_options *opt;
	struct lk_timeline *tl;
	struct lk_census census;      /* the bands' values */
	struct lk_band_index bands;   /* by key */
	struct ipe *ipes;
	size_t n_ipes, cap_ipes;
	size_t *iidx;
	size_t iidx_cap;
	struct cc *ccs;
	size_t n_ccs, cap_ccs;
	size_t *cidx;
	size_t cidx_cap;
	struct dseries heap, live, blocks;
	int have_blocks;
	size_t cap_markers;
	uint32_t breakdown;
	int have_breakdown;
	int orphans;                  /* samples of a census left out: ignored
				       * until the next census begins */
	char *program;                /* its path as it was run (argv[0]) */
};

/* ---- series ----------------------------------------------------------- */

struct point { double t, v; };

static int by_time(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;
	return (a->t > b->t) - (a->t < b->t);
}

/* Sort p by time by insertion: the points come nearly in time order (only
 * the capabilities' buffers interleave), so that is linear where qsort was
 * most of a decimation. 0, or -1 after more than 16 moves a point (input
 * far from sorted: the caller sorts otherwise). Stable, like the result
 * of qsort on distinct times. */
static int insertion_sort(struct point *p, size_t n)
{
	size_t moves = 0;
	for (size_t i = 1; i < n; i++) {
		struct point x = p[i];
		size_t j = i;
		for (; j > 0 && p[j - 1].t > x.t; j--) {
			p[j] = p[j - 1];
			if (++moves > 16 * n)
				return -1;
		}
		p[j] = x;
	}
	return 0;
}

/* Bucket of a time: n buckets from lo to hi, about one point each. */
static size_t time_bucket(double t, double lo, double scale, size_t n)
{
	size_t b = (size_t)((t - lo) * scale);
	return b < n ? b : n - 1;
}

/* Sort by time, stably: first by buckets of time (a counting sort, in
 * input order within a bucket), after which insertion moves a point a few
 * places at most. The capabilities' buffers interleave whole stretches of
 * time, which insertion alone would move point by point; one capability's
 * points are in order already. */
static void sort_points(double *t, double *v, size_t n, struct point *tmp)
{
	size_t ordered = 1;
	while (ordered < n && t[ordered - 1] <= t[ordered])
		ordered++;
	if (ordered >= n)
		return;
	double lo = n ? t[0] : 0, hi = lo;
	for (size_t i = 1; i < n; i++) {
		lo = t[i] < lo ? t[i] : lo;
		hi = t[i] > hi ? t[i] : hi;
	}
	size_t *start = n > 1 && hi > lo ? calloc(n + 1, sizeof(*start)) : NULL;
	if (start) {
		double scale = (double)n / (hi - lo);
		for (size_t i = 0; i < n; i++)
			start[time_bucket(t[i], lo, scale, n) + 1]++;
		for (size_t b = 1; b <= n; b++)
			start[b] += start[b - 1];
		for (size_t i = 0; i < n; i++)
			tmp[start[time_bucket(t[i], lo, scale, n)]++] = (struct point){t[i], v[i]};
		free(start);
	} else {
		for (size_t i = 0; i < n; i++)
			tmp[i] = (struct point){t[i], v[i]};
	}
	if (insertion_sort(tmp, n))
		qsort(tmp, n, sizeof(*tmp), by_time);
	for (size_t i = 0; i < n; i++)
		t[i] = tmp[i].t, v[i] = tmp[i].v;
}

static int ds_push(struct dseries *s, double t, double v)
{
	if (!s->t) {
		s->t = malloc(LK_PROFILE_SERIES_MAX * sizeof(double));
		s->v = malloc(LK_PROFILE_SERIES_MAX * sizeof(double));
		if (!s->t || !s->v)
			return -ENOMEM;
	}
	if (s->n == LK_PROFILE_SERIES_MAX) {
		struct point *tmp = malloc(s->n * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		sort_points(s->t, s->v, s->n, tmp);
		free(tmp);
		size_t k = 0;
		for (size_t i = 0; i + 1 < s->n; i += 2, k++) {
			size_t j = s->v[i + 1] > s->v[i] ? i + 1 : i;
			s->t[k] = s->t[j];
			s->v[k] = s->v[j];
		}
		s->n = k;
		s->stride *= 2;
	}
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->n++;
	return 0;
}

/* Inlined, and the time in seconds computed only for the points kept:
 * heap size events come by the million. */
static inline __attribute__((always_inline)) int ds_add(struct dseries *s, uint64_t t, double v)
{
	if (s->stride == 0)
		s->stride = 1;
	if (s->pending == 0 || v > s->pv) {
		s->pt = t;
		s->pv = v;
	}
	if (++s->pending < s->stride)
		return 0;
	s->pending = 0;
	return ds_push(s, (double)s->pt / 1e9, s->pv);
}

static int ds_move(struct dseries *s, const char *name, struct lk_timeline *tl)
{
	int rc = 0;
	if (s->pending) {
		s->pending = 0;
		if ((rc = ds_push(s, (double)s->pt / 1e9, s->pv)))
			return rc;
	}
	struct point *tmp = malloc((s->n ? s->n : 1) * sizeof(*tmp));
	struct lk_series *ns = realloc(tl->series, (tl->n_series + 1) * sizeof(*ns));
	if (ns)
		tl->series = ns;
	char *nm = strdup(name);
	if (!tmp || !ns || !nm) {
		free(tmp);
		free(nm);
		return -ENOMEM;
	}
	sort_points(s->t, s->v, s->n, tmp);
	free(tmp);
	ns[tl->n_series++] = (struct lk_series){nm, s->n, s->t, s->v};
	s->t = s->v = NULL;
	s->n = 0;
	return 0;
}

/* ---- bands ------------------------------------------------------------ */

static int rehash(size_t **idx, size_t *cap, size_t n,
		  uint64_t (*key)(struct builder *, size_t), struct builder *b)
{
	size_t nc = *cap ? *cap * 2 : 256;
	size_t *ni = calloc(nc, sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t h = (size_t)key(b, i) & (nc - 1);
		while (ni[h])
			h = (h + 1) & (nc - 1);
		ni[h] = i + 1;
	}
	free(*idx);
	*idx = ni;
	*cap = nc;
	return 0;
}

static uint64_t ipe_hash(struct builder *b, size_t i) { return hash_u64(b->ipes[i].addr); }
static uint64_t cc_hash(struct builder *b, size_t i) { return hash_u64(b->ccs[i].id); }

static int new_census(struct builder *b, uint64_t t_ns)
{
	b->orphans = 0;
	lk_band_index_census(&b->bands);
	return lk_census_begin(&b->census, (double)t_ns / 1e9);
}

/* A sample outside a census begins one at its time. */
static int add_value(struct builder *b, uint64_t t_ns, const char *key, size_t n,
		     int stack, double bytes)
{
	int rc;
	if (b->orphans)
		return 0;
	if (!b->census.open && (rc = new_census(b, t_ns)))
		return rc;
	struct lk_band_key k;
	lk_band_key_make(&k, key, n, stack);
	long i = lk_band_index_get(&b->bands, &k);
	if (i < 0)
		return (int)i;
	return lk_census_add(&b->census, (size_t)i, bytes);
}

/* The band of a string sample's label (p + 9, len - 9 bytes, len at
 * least 10), added if new; <0 on ENOMEM. */
static long string_band(struct builder *b, const uint8_t *p, size_t len)
{
	const char *s = (const char *)p + 9;
	size_t avail = len - 9, n, slot;
	struct lk_band_key k;
	long i;
	/* GHC writes the label's NUL last: looked up at that length first.
	 * A band's key has no NUL, so one that matches is all the label. */
	if (s[avail - 1] == 0) {
		lk_band_key_make(&k, s, avail - 1, 0);
		if ((i = lk_band_index_find(&b->bands, &k, &slot)) >= 0)
			return i;
	}
	const uint8_t *q = p + 9;
	const char *label = strz(&q, p + len, &n);
	lk_band_key_make(&k, label, n, 0);
	return lk_band_index_get(&b->bands, &k);
}

/* HEAP_PROF_SAMPLE_STRING: u8 profile id, u64 bytes, label\0. */
static int on_sample_string(struct builder *b, uint64_t t, const uint8_t *p, size_t len)
{
	int rc;
	if (b->orphans)
		return 0;
	if (!b->census.open && (rc = new_census(b, t)))
		return rc;
	long i = string_band(b, p, len);
	if (i < 0)
		return (int)i;
	return lk_census_add(&b->census, (size_t)i, (double)be64(p + 1));
}

/* ---- IPE and cost centres --------------------------------------------- */

static struct ipe *ipe_find(struct builder *b, uint64_t addr)
{
	if (!b->iidx_cap)
		return NULL;
	size_t h = (size_t)hash_u64(addr) & (b->iidx_cap - 1);
	while (b->iidx[h]) {
		struct ipe *e = &b->ipes[b->iidx[h] - 1];
		if (e->addr == addr)
			return e;
		h = (h + 1) & (b->iidx_cap - 1);
	}
	return NULL;
}

static int on_ipe(struct builder *b, const uint8_t *p, size_t len)
{
	if (len < 8)
		return 0;
	const uint8_t *q = p + 8, *end = p + len;
	uint64_t addr = be64(p);
	if (ipe_find(b, addr))
		return 0;
	if (b->n_ipes * 2 >= b->iidx_cap &&
	    rehash(&b->iidx, &b->iidx_cap, b->n_ipes, ipe_hash, b))
		return -ENOMEM;
	if (lk_array_grow(&b->ipes, &b->cap_ipes, b->n_ipes + 1, sizeof(*b->ipes), 16))
		return -ENOMEM;
	struct ipe *e = &b->ipes[b->n_ipes];
	e->addr = addr;
	for (int i = 0; i < 6; i++) {
		size_t n;
		const char *s = strz(&q, end, &n);
		e->f[i] = dupn(s, n);
		if (!e->f[i]) {
			while (i-- > 0)
				free(e->f[i]);
			return -ENOMEM;
		}
	}
	size_t h = (size_t)hash_u64(addr) & (b->iidx_cap - 1);
	while (b->iidx[h])
		h = (h + 1) & (b->iidx_cap - 1);
	b->iidx[h] = ++b->n_ipes;
	return 0;
}

static struct cc *cc_find(struct builder *b, uint32_t id)
{
	if (!b->cidx_cap)
		return NULL;
	size_t h = (size_t)hash_u64(id) & (b->cidx_cap - 1);
	while (b->cidx[h]) {
		struct cc *c = &b->ccs[b->cidx[h] - 1];
		if (c->id == id)
			return c;
		h = (h + 1) & (b->cidx_cap - 1);
	}
	return NULL;
}

static int on_cost_centre(struct builder *b, const uint8_t *p, size_t len)
{
	if (len < 4)
		return 0;
	uint32_t id = be32(p);
	if (cc_find(b, id))
		return 0;
	if (b->n_ccs * 2 >= b->cidx_cap &&
	    rehash(&b->cidx, &b->cidx_cap, b->n_ccs, cc_hash, b))
		return -ENOMEM;
	if (lk_array_grow(&b->ccs, &b->cap_ccs, b->n_ccs + 1, sizeof(*b->ccs), 16))
		return -ENOMEM;
	const uint8_t *q = p + 4, *end = p + len;
	size_t n1, n2, n3;
	const char *l = strz(&q, end, &n1);
	const char *m = strz(&q, end, &n2);
	const char *s = strz(&q, end, &n3);
	struct cc *c = &b->ccs[b->n_ccs];
	c->id = id;
	c->label = dupn(l, n1);
	c->module = dupn(m, n2);
	c->srcloc = dupn(s, n3);
	if (!c->label || !c->module || !c->srcloc) {
		free(c->label);
		free(c->module);
		free(c->srcloc);
		return -ENOMEM;
	}
	size_t h = (size_t)hash_u64(id) & (b->cidx_cap - 1);
	while (b->cidx[h])
		h = (h + 1) & (b->cidx_cap - 1);
	b->cidx[h] = ++b->n_ccs;
	return 0;
}

/* A -hc sample: the band key is the stack of ids as they lie in the
 * event, made text ("#1,2,3", stack_text) and then labels once every cost
 * centre is known (finish_cc). */
static int on_sample_cc(struct builder *b, uint64_t t, const uint8_t *p, size_t len)
{
	if (len < 10)
		return 0;
	uint64_t bytes = be64(p + 1);
	size_t depth = p[9];
	if (len < 10 + 4 * depth)
		depth = (len - 10) / 4;
	return add_value(b, t, (const char *)p + 10, 4 * depth, 1, (double)bytes);
}

/* ---- metadata events -------------------------------------------------- */

static int on_program_args(struct builder *b, const uint8_t *p, size_t len)
{
	if (len <= 4)
		return 0;
	char *s = dupn(p + 4, len - 4);
	if (!s)
		return -ENOMEM;
	size_t n = len - 4;
	while (n > 0 && s[n - 1] == 0)
		n--;
	s[n] = 0;
	const char *arg0 = s;
	const char *slash = strrchr(arg0, '/');
	free(b->program);
	if (!(b->program = strdup(arg0))) {
		free(s);
		return -ENOMEM;
	}
	free(b->tl->title);
	b->tl->title = strdup(slash ? slash + 1 : arg0);
	for (size_t i = 0; i < n; i++)
		if (s[i] == 0)
			s[i] = ' ';
	return lk_heap_timeline_meta(b->tl, "program", s);
}

/* SECS since 1970 as "YYYY-MM-DDTHH:MM:SSZ" (the proleptic Gregorian
 * calendar of days from civil dates; not gmtime_r(), which reads the time
 * zone's file on its first call, seven system calls for nothing here). */
static void utc_text(uint64_t secs, char *buf, size_t size)
{
	uint64_t days = secs / 86400, s = secs % 86400;
	uint64_t z = days + 719468, era = z / 146097, doe = z % 146097;
	uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	uint8_t day = (uint8_t)(doy - (153 * mp + 2) / 5 + 1);
	uint8_t month = (uint8_t)(mp < 10 ? mp + 3 : mp - 9);
	uint32_t year = (uint32_t)(yoe + era * 400 + (month <= 2));
	snprintf(buf, size, "%04u-%02u-%02uT%02u:%02u:%02uZ", year, month, day,
		 (uint8_t)(s / 3600), (uint8_t)(s / 60 % 60), (uint8_t)(s % 60));
}

static int on_wall_clock(struct builder *b, uint64_t t, const uint8_t *p, size_t len)
{
	if (len < 16)
		return 0;
	double wall = (double)be64(p + 4) + be32(p + 12) / 1e9 - (double)t / 1e9;
	if (!(wall > 0 && wall < 1e11))  /* before 1970 or after year 5000: nonsense */
		return 0;
	char buf[40];
	utc_text((uint64_t)wall, buf, sizeof(buf));
	return lk_heap_timeline_meta(b->tl, "start", strdup(buf));
}

const char *lk_profile_breakdown_name(uint32_t breakdown)
{
	static const char *const names[] = {
		NULL, "cost centre (-hc)", "module (-hm)", "closure description (-hd)",
		"type description (-hy)", "retainer set (-hr)", "biography (-hb)",
		"closure type (-hT)", "info table (-hi)", "era (-he)",
	};
	return breakdown < sizeof(names) / sizeof(names[0]) ? names[breakdown] : NULL;
}

static int on_prof_begin(struct builder *b, const uint8_t *p, size_t len)
{
	if (len < 13)
		return 0;
	uint64_t period = be64(p + 1);
	b->breakdown = be32(p + 9);
	b->have_breakdown = 1;
	const char *name = lk_profile_breakdown_name(b->breakdown);
	int rc = lk_heap_timeline_meta(b->tl, "breakdown", name ? strdup(name)
				       : fmt("unknown (%" PRIu32 ")", b->breakdown));
	if (rc == 0 && period)
		rc = lk_heap_timeline_meta_num(b->tl, "sampling interval", "sampling_interval_ns",
					       fmt("%g s", (double)period / 1e9), (int64_t)period);
	return rc;
}

static int add_marker(struct builder *b, uint64_t t, const uint8_t *p, size_t len)
{
	struct lk_timeline *tl = b->tl;
	if (lk_array_grow(&tl->markers, &b->cap_markers, tl->n_markers + 1,
			  sizeof(*tl->markers), 16))
		return -ENOMEM;
	char *s = text_payload(p, len);
	if (!s)
		return -ENOMEM;
	tl->markers[tl->n_markers++] = (struct lk_marker){(double)t / 1e9, s};
	return 0;
}

/* The events on_event() reads; the reader steps over all others. */
static const uint16_t wanted_events[] = {
	LK_EV_HEAP_PROF_BEGIN, LK_EV_HEAP_PROF_COST_CENTRE, LK_EV_HEAP_PROF_SAMPLE_BEGIN,
	LK_EV_HEAP_BIO_PROF_SAMPLE_BEGIN, LK_EV_HEAP_PROF_SAMPLE_END,
	LK_EV_HEAP_PROF_SAMPLE_STRING, LK_EV_HEAP_PROF_SAMPLE_COST_CENTRE, LK_EV_IPE,
	LK_EV_HEAP_SIZE, LK_EV_HEAP_LIVE, LK_EV_BLOCKS_SIZE, LK_EV_USER_MARKER,
	LK_EV_USER_MSG, LK_EV_RTS_IDENTIFIER, LK_EV_PROGRAM_ARGS, LK_EV_WALL_CLOCK_TIME,
};

static int on_event(struct builder *b, const struct lk_eventlog_event *ev)
{
	const uint8_t *p = ev->payload;
	size_t len = ev->len;
	switch (ev->type) {
	case LK_EV_HEAP_PROF_BEGIN:
		return on_prof_begin(b, p, len);
	case LK_EV_HEAP_PROF_COST_CENTRE:
		return on_cost_centre(b, p, len);
	case LK_EV_HEAP_PROF_SAMPLE_BEGIN:
		return new_census(b, ev->time);
	case LK_EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
		return len >= 16 ? new_census(b, be64(p + 8)) : 0;
	case LK_EV_HEAP_PROF_SAMPLE_END:
		return lk_census_end(&b->census);
	case LK_EV_HEAP_PROF_SAMPLE_STRING:
		return len < 10 ? 0 : on_sample_string(b, ev->time, p, len);
	case LK_EV_HEAP_PROF_SAMPLE_COST_CENTRE:
		return on_sample_cc(b, ev->time, p, len);
	case LK_EV_IPE:
		return on_ipe(b, p, len);
	case LK_EV_HEAP_SIZE:
		return len >= 12 ? ds_add(&b->heap, ev->time, (double)be64(p + 4)) : 0;
	case LK_EV_HEAP_LIVE:
		return len >= 12 ? ds_add(&b->live, ev->time, (double)be64(p + 4)) : 0;
	case LK_EV_BLOCKS_SIZE:
		if (len < 12)
			return 0;
		b->have_blocks = 1;
		return ds_add(&b->blocks, ev->time, (double)be64(p + 4));
	case LK_EV_USER_MARKER:
		return add_marker(b, ev->time, p, len);
	case LK_EV_USER_MSG:
		return b->opt->messages ? add_marker(b, ev->time, p, len) : 0;
	case LK_EV_RTS_IDENTIFIER:
		return len > 4 ? lk_heap_timeline_meta(b->tl, "rts", text_payload(p + 4, len - 4)) : 0;
	case LK_EV_PROGRAM_ARGS:
		return on_program_args(b, p, len);
	case LK_EV_WALL_CLOCK_TIME:
		return on_wall_clock(b, ev->time, p, len);
	}
	return 0;
}

/* ---- finishing ---------------------------------------------------------- */

static const char *closure_type_name(const char *num)
{
	/* GHC's rts/include/rts/storage/ClosureTypes.h (stable since 8.x) */
	static const char *const names[] = {
		"INVALID_OBJECT", "CONSTR", "CONSTR_1_0", "CONSTR_0_1", "CONSTR_2_0",
		"CONSTR_1_1", "CONSTR_0_2", "CONSTR_NOCAF", "FUN", "FUN_1_0", "FUN_0_1",
		"FUN_2_0", "FUN_1_1", "FUN_0_2", "FUN_STATIC", "THUNK", "THUNK_1_0",
		"THUNK_0_1", "THUNK_2_0", "THUNK_1_1", "THUNK_0_2", "THUNK_STATIC",
		"THUNK_SELECTOR", "BCO", "AP", "PAP", "AP_STACK", "IND", "IND_STATIC",
	};
	char *end;
	unsigned long v = strtoul(num, &end, 10);
	if (end == num || *end || v >= sizeof(names) / sizeof(names[0]))
		return num;
	return names[v];
}

static int set_columns(struct lk_timeline *tl, const char *const *cols, size_t n)
{
	tl->detail_columns = calloc(n, sizeof(char *));
	if (!tl->detail_columns)
		return -ENOMEM;
	tl->n_detail_columns = n;
	for (size_t i = 0; i < n; i++)
		if (!(tl->detail_columns[i] = strdup(cols[i])))
			return -ENOMEM;
	return 0;
}

/* The executable that names -hi bands by symbol, if any. */
static const char *executable(const struct builder *b)
{
	if (b->opt->binary)
		return b->opt->binary;
	if (b->opt->program_binary && b->program && access(b->program, R_OK) == 0)
		return b->program;
	return NULL;
}

/* -hi: label and details from the IPE of the band's info table address. */
static int finish_ipe(struct builder *b, struct lk_band *band)
{
	struct lk_timeline *tl = b->tl;
	char *end;
	uint64_t addr = strtoull(band->id, &end, 16);
	struct ipe *e = (end != band->id && *end == 0) ? ipe_find(b, addr) : NULL;
	band->details = calloc(tl->n_detail_columns, sizeof(char *));
	if (!band->details)
		return -ENOMEM;
	if (!e)
		return 0;
	/* columns: description, closure type, type, module, source location.
	 * GHC 9.6+ writes the location as "file:span", ":" when it has none. */
	const char *loc = strcmp(e->f[5], ":") == 0 ? "" : e->f[5];
	const char *vals[5] = {e->f[0], closure_type_name(e->f[1]), e->f[2], e->f[4], loc};
	for (size_t i = 0; i < 5; i++)
		if (!(band->details[i] = strdup(vals[i])))
			return -ENOMEM;
	if (*e->f[0]) {
		free(band->label);
		if (!(band->label = strdup(e->f[0])))
			return -ENOMEM;
	}
	return 0;
}

/* -hc: "#3,2,1" -> "Main.f/Main.main", details of the innermost centre. */
static int finish_cc(struct builder *b, struct lk_band *band)
{
	struct lk_timeline *tl = b->tl;
	band->details = calloc(tl->n_detail_columns, sizeof(char *));
	if (!band->details)
		return -ENOMEM;
	if (band->id[0] != '#')
		return 0;
	size_t cap = 0, n = 0;
	char *out = NULL;
	const char *s = band->id + 1;
	int first = 1;
	while (*s) {
		char *end;
		uint32_t id = (uint32_t)strtoul(s, &end, 10);
		s = *end ? end + 1 : end;
		struct cc *c = cc_find(b, id);
		char *part = c ? fmt("%s%s%s", c->module, *c->module ? "." : "", c->label)
			       : fmt("cc%" PRIu32, id);
		if (!part || lk_array_grow(&out, &cap, n + strlen(part) + 2, 1, 16)) {
			free(part);
			free(out);
			return -ENOMEM;
		}
		n += (size_t)sprintf(out + n, "%s%s", first ? "" : "/", part);
		free(part);
		if (first && c && (!(band->details[0] = strdup(c->module)) ||
				   !(band->details[1] = strdup(c->srcloc)))) {
			free(out);
			return -ENOMEM;
		}
		first = 0;
	}
	if (!out && !(out = strdup("(empty stack)")))
		return -ENOMEM;
	free(band->label);
	band->label = out;
	return 0;
}

/* Equal labels from different stacks of ids get " #2", " #3". */
static int unique_ids(struct lk_timeline *tl)
{
	for (size_t i = 0; i < tl->n_bands; i++) {
		int k = 1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(tl->bands[j].label, tl->bands[i].label) == 0)
				k++;
		free(tl->bands[i].id);
		tl->bands[i].id = k == 1 ? strdup(tl->bands[i].label)
					 : fmt("%s #%d", tl->bands[i].label, k);
		if (!tl->bands[i].id)
			return -ENOMEM;
	}
	return 0;
}

/* A cost-centre stack band's key made text: "#" and the ids, innermost
 * first, joined by ",". */
static int stack_text(struct lk_band_name *bb)
{
	size_t depth = bb->n / 4, n = 1;
	char *s = malloc(2 + 11 * depth);
	if (!s)
		return -ENOMEM;
	s[0] = '#';
	s[1] = 0;
	for (size_t i = 0; i < depth; i++)
		n += (size_t)sprintf(s + n, i ? ",%" PRIu32 : "%" PRIu32,
				     be32((const uint8_t *)bb->key + 4 * i));
	free(bb->key);
	bb->key = s;
	bb->n = n;
	bb->stack = 0;
	return 0;
}

/* Every cost-centre stack band's key made text. 0 or -ENOMEM. */
static int stacks_text(struct builder *b)
{
	for (size_t k = 0; k < b->bands.n; k++)
		if (b->bands.names[k].stack && stack_text(&b->bands.names[k]))
			return -ENOMEM;
	return 0;
}

static int finish(struct builder *b)
{
	struct lk_timeline *tl = b->tl;
	int rc;
	if ((rc = stacks_text(b)) || (rc = lk_heap_timeline_bands(tl, &b->census, &b->bands)))
		return rc;

	if (b->have_breakdown && b->breakdown == 8) {
		static const char *const cols[] = {"description", "closure type", "type",
						   "module", "source location"};
		if ((rc = set_columns(tl, cols, 5)))
			return rc;
		for (size_t k = 0; k < tl->n_bands; k++)
			if ((rc = finish_ipe(b, &tl->bands[k])))
				return rc;
		const char *exe = executable(b);
		char *refused = NULL;
		if (exe && (rc = lk_infotables_name(tl, exe, &refused)))
			return rc;
		if (refused) {
			rc = lk_heap_timeline_warn(tl, "%s", refused);
			free(refused);
			if (rc)
				return rc;
		}
	} else if (b->have_breakdown && b->breakdown == 1) {
		static const char *const cols[] = {"module", "source location"};
		if ((rc = set_columns(tl, cols, 2)))
			return rc;
		for (size_t k = 0; k < tl->n_bands; k++)
			if ((rc = finish_cc(b, &tl->bands[k])))
				return rc;
		if ((rc = unique_ids(tl)))
			return rc;
	}

	if ((rc = ds_move(&b->heap, "heap size", tl)) || (rc = ds_move(&b->live, "live bytes", tl)))
		return rc;
	if (b->have_blocks && (rc = ds_move(&b->blocks, "blocks size", tl)))
		return rc;
	return lk_heap_timeline_finish(tl, &b->census, "no heap profile samples: run the program "
				       "with +RTS -l -hT (or -hi, -hc, ...)");
}

static void builder_release(struct builder *b)
{
	lk_census_release(&b->census);
	lk_band_index_release(&b->bands);
	for (size_t i = 0; i < b->n_ipes; i++)
		for (int j = 0; j < 6; j++)
			free(b->ipes[i].f[j]);
	free(b->ipes);
	free(b->iidx);
	for (size_t i = 0; i < b->n_ccs; i++) {
		free(b->ccs[i].label);
		free(b->ccs[i].module);
		free(b->ccs[i].srcloc);
	}
	free(b->ccs);
	free(b->cidx);
	struct dseries *ss[] = {&b->heap, &b->live, &b->blocks};
	for (int i = 0; i < 3; i++) {
		free(ss[i]->t);
		free(ss[i]->v);
	}
	free(b->program);
}

/* The open census, cut before its end event (the file ends, or damaged
 * bytes were skipped: why), is left out of the report, with a warning. */
static int drop_census(struct builder *b, const char *why)
{
	struct lk_census *c = &b->census;
	if (!c->open)
		return 0;
	double t = c->open_t;
	lk_census_drop(c);
	b->orphans = 1;
	return lk_heap_timeline_warn(b->tl, "census at %.3f s is incomplete (%s): left out of "
				     "the report", t, why);
}

/* Damaged bytes were skipped (lk_error_detail() says which): a warning;
 * the census open, if they were in the global buffer that holds the
 * censuses, is left out. */
static int on_skipped(struct builder *b, const struct lk_eventlog_event *ev)
{
	if (lk_heap_timeline_warn(b->tl, "%s", lk_error_detail()))
		return -ENOMEM;
	if (ev->cap == LK_EVENTLOG_NOCAP && drop_census(b, "bytes of it were skipped"))
		return -ENOMEM;
	return 0;
}

int lk_profile_read(FILE *f, const struct lk_profile_options *opt,
		    struct lk_timeline *tl, struct lk_profile_stats *st)
{
	static const struct lk_profile_options defaults;
	struct lk_profile_stats local;
	struct lk_eventlog *r;
	struct lk_eventlog_event ev;

	*tl = (struct lk_timeline){0};
	if (!st)
		st = &local;
	*st = (struct lk_profile_stats){0};
	int rc = lk_eventlog_open(f, &r);
	if (rc)
		return rc;
	struct builder b = {.opt = opt ? opt : &defaults, .tl = tl};
	lk_eventlog_want_only(r, wanted_events, sizeof(wanted_events) / sizeof(wanted_events[0]));
	while ((rc = lk_eventlog_next(r, &ev)) > 0) {
		if (rc == LK_EVENTLOG_SKIPPED)
			rc = on_skipped(&b, &ev);
		else
			while ((rc = on_event(&b, &ev)) >= 0 && lk_eventlog_next_same(r, &ev))
				;
		if (rc < 0)
			break;
	}
	st->bytes = lk_eventlog_offset(r);
	st->events = lk_eventlog_count(r);
	if (rc == -ENOMEM)
		goto fail;
	if (rc < 0) {
		st->data_error = rc;
		if (lk_heap_timeline_warn(tl, "%s", lk_error_detail()))
			goto fail;
	} else if (!lk_eventlog_ended(r)) {
		if (lk_heap_timeline_warn(tl, "no end-of-data marker: the program did not exit "
					  "normally, the last samples may be missing"))
			goto fail;
	}
	if ((rc < 0 || !lk_eventlog_ended(r)) && drop_census(&b, "the file ends before its end"))
		goto fail;
	rc = finish(&b);
	if (rc)
		goto fail;
	builder_release(&b);
	lk_eventlog_close(r);
	if (st->data_error)  /* keep the detail for the caller's message */
		lk_error_set(st->data_error, "%s", tl->warnings[0]);
	return 0;
fail:
	builder_release(&b);
	lk_eventlog_close(r);
	lk_timeline_release(tl);
	return -ENOMEM;
}
