/*
 * rtrace.c - one trace file of a recording (rtrace.h): session events ->
 * trace records, stack ids -> dense trace ids, frame addresses -> SYMBOL
 * and MODULE records, periodic samples and flushes. Never prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/leaks.h"
#include "common/error.h"
#include "record/buildid.h"
#include "record/rtrace.h"
#include "trace/format.h"

#define TICK_NS 1000u       /* trace times are microseconds */

uint64_t lk_rtrace_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t real_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The first failure stops the trace; the file keeps its complete chunks. */
static void fail(struct lk_rtrace *t, int rc)
{
	if (t->err)
		return;
	t->err = rc;
	const char *d = lk_error_detail();
	snprintf(t->errmsg, sizeof(t->errmsg), "%s", *d ? d : lk_error_name(rc));
	if (t->w)
		t->bytes = lk_trace_writer_offset(t->w);
	lk_trace_writer_abandon(t->w);
	t->w = NULL;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* Raw /proc/PID/cmdline (NUL-separated), or NULL. */
static char *read_cmdline(pid_t pid, size_t *len)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/%d/cmdline", (int)pid);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 4096;
	char *buf = malloc(cap);
	ssize_t n = buf ? read(fd, buf, cap) : -1;
	close(fd);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	if (buf[n - 1] == 0)
		n--;            /* NUL separated, not terminated */
	*len = (size_t)n;
	return buf;
}

int lk_rtrace_open(struct lk_rtrace **out, struct lk_session *s, const char *path, int fd,
		   const struct lk_rtrace_config *cfg)
{
	*out = NULL;
	struct lk_rtrace *t = calloc(1, sizeof(*t));
	if (!t) {
		close(fd);
		return -ENOMEM;
	}
	t->fd = fd;
	t->s = s;
	t->seen_key = lk_live_key();
	t->pid = s->pid;
	t->path = strdup(path);
	t->comm = strdup(s->comm[0] ? s->comm : "?");
	t->window = cfg->window;
	t->sample_ns = (uint64_t)cfg->sample_ms * 1000000u;
	t->flush_ns = (uint64_t)cfg->flush_ms * 1000000u;
	if (!t->path || !t->comm) {
		lk_rtrace_free(t);
		return -ENOMEM;
	}
	size_t len = 0;
	char *cmd = read_cmdline(s->pid, &len);
	struct lk_trace_meta meta = {
		.pid = (uint32_t)s->pid, .cmdline = cmd ? cmd : s->comm,
		.cmdline_len = cmd ? len : strnlen(s->comm, sizeof(s->comm)),
		.tick_ns = TICK_NS, .clock_res_ns = cfg->period_ms * 1000000u,
	};
	struct lk_trace_writer_options wo = {.level = cfg->level, .numbered = 1};
	t->t0 = lk_rtrace_mono_ns();
	meta.start_ns = real_ns();
	int rc = lk_trace_writer_fdopen(fd, &meta, &wo, &t->w);
	free(cmd);
	if (rc) {
		lk_rtrace_free(t);
		return lk_error_set(rc, "cannot write '%s'", path);
	}
	t->next_sample = t->t0;
	t->next_flush = t->t0 + t->flush_ns;
	*out = t;
	return 0;
}

void lk_rtrace_clock(struct lk_rtrace *t, uint64_t mono_ns)
{
	t->now = mono_ns > t->t0 ? (mono_ns - t->t0) / TICK_NS : 0;
}

/* ---- frame addresses to symbolize --------------------------------------- */

/* The slot of frame address a in a table of cap slots (a power of two):
 * keyed, as the program chooses its stacks' addresses (collector/live.h). */
static size_t seen_slot(const struct lk_rtrace *t, uint64_t a, size_t cap)
{
	return (size_t)((a * t->seen_key) >> (64 - __builtin_ctzll(cap)));
}

static int seen_grow(struct lk_rtrace *t)
{
	size_t cap = t->seen_cap ? t->seen_cap * 2 : 1024;
	uint64_t *n = calloc(cap, sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < t->seen_cap; i++) {
		uint64_t a = t->seen[i];
		if (!a)
			continue;
		size_t j = seen_slot(t, a, cap);
		while (n[j])
			j = (j + 1) & (cap - 1);
		n[j] = a;
	}
	free(t->seen);
	t->seen = n;
	t->seen_cap = cap;
	return 0;
}

/* Queue ip unless it was queued before. Address 0 is not a frame. */
static int queue_frame(struct lk_rtrace *t, uint64_t ip)
{
	if (!ip)
		return 0;
	if (2 * (t->seen_n + 1) > t->seen_cap && seen_grow(t))
		return -ENOMEM;
	size_t mask = t->seen_cap - 1;
	size_t j = seen_slot(t, ip, t->seen_cap);
	for (; t->seen[j]; j = (j + 1) & mask)
		if (t->seen[j] == ip)
			return 0;
	if (t->todo_head + t->todo_n == t->todo_cap) {
		if (t->todo_head > 0) {     /* slide the queue down first */
			memmove(t->todo, t->todo + t->todo_head, t->todo_n * sizeof(*t->todo));
			t->todo_head = 0;
		} else {
			size_t cap = t->todo_cap ? t->todo_cap * 2 : 256;
			uint64_t *n = realloc(t->todo, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			t->todo = n;
			t->todo_cap = cap;
		}
	}
	t->seen[j] = ip;
	t->seen_n++;
	t->todo[t->todo_head + t->todo_n++] = ip;
	return 0;
}

/* ---- stacks ------------------------------------------------------------ */

/* Where the trace id of session stack sid is kept (grown to hold it), or
 * NULL without memory. */
static uint32_t *map_slot(struct lk_rtrace *t, uint32_t sid)
{
	int attach = sid >= LK_ATTACH_STACK;
	uint32_t **map = attach ? &t->attach_map : &t->stack_map;
	size_t *cap = attach ? &t->attach_cap : &t->stack_cap;
	uint32_t i = attach ? sid - LK_ATTACH_STACK : sid;
	if (i >= *cap) {
		size_t nc = *cap ? *cap : 1024;
		while (nc <= i)
			nc *= 2;
		uint32_t *n = realloc(*map, nc * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + *cap, 0, (nc - *cap) * sizeof(*n));
		*map = n;
		*cap = nc;
	}
	return &(*map)[i];
}

/* The frames of session stack sid: a group of blocks from before an
 * attach has one, a pseudo address (LK_TRACE_ATTACH_IP) its symbol names. */
static int stack_frames(struct lk_rtrace *t, uint32_t sid, uint64_t ips[LK_MAX_FRAMES])
{
	if (sid >= LK_ATTACH_STACK) {
		ips[0] = LK_TRACE_ATTACH_IP + (sid - LK_ATTACH_STACK);
		return 1;
	}
	int got = t->s ? lk_session_stack(t->s, sid, ips) : 0;
	if (got < 0)
		lk_session_corrupt(t->s, "a stack entry");
	return got;
}

/* The trace id of session stack sid, defining it first; 0 for none. */
static uint32_t map_stack(struct lk_rtrace *t, uint32_t sid)
{
	if (sid == 0)
		return 0;
	uint32_t *slot = map_slot(t, sid);
	if (!slot) {
		fail(t, -ENOMEM);
		return 0;
	}
	if (*slot)
		return *slot;
	uint64_t ips[LK_MAX_FRAMES];
	int got = stack_frames(t, sid, ips);
	if (got <= 0)
		return 0;
	uint32_t depth = (uint32_t)got;
	int rc = lk_trace_write_stack(t->w, t->n_stacks + 1, ips, depth);
	for (uint32_t i = 0; !rc && i < depth; i++)
		rc = queue_frame(t, ips[i]);
	if (rc) {
		fail(t, rc);
		return 0;
	}
	*slot = ++t->n_stacks;
	return t->n_stacks;
}

/* ---- events ------------------------------------------------------------ */

static void put_alloc(struct lk_rtrace *t, uint32_t tid, struct lk_block *b)
{
	uint32_t stack = map_stack(t, b->stack);
	if (!t->w)
		return;
	uint64_t number = lk_trace_writer_allocs(t->w);
	int rc = lk_trace_write_alloc(t->w, t->now, tid, b->addr, b->size, stack);
	if (rc) {
		fail(t, rc);
		return;
	}
	b->seq = (b->seq & LK_BLOCK_IGNORED) | LK_BLOCK_TRACED | number;
	t->events++;
	t->allocs++;
	t->t_last = t->now;
}

/* The free of block b, which the trace holds (LK_BLOCK_TRACED). */
static void put_free(struct lk_rtrace *t, uint32_t tid, const struct lk_block *b)
{
	int rc = lk_trace_write_free_number(t->w, t->now, tid, LK_BLOCK_NUMBER(b->seq), b->addr,
					    b->size);
	if (rc) {
		fail(t, rc);
		return;
	}
	t->events++;
	t->frees++;
	t->t_last = t->now;
}

void lk_rtrace_event(struct lk_rtrace *t, const struct lk_session_event *ev)
{
	if (!t->w)
		return;
	struct lk_block *b = ev->block;
	switch (ev->kind) {
	case LK_EV_ALLOC:
		if (ev->replaced && (ev->replaced->seq & LK_BLOCK_TRACED))
			put_free(t, ev->tid, ev->replaced);   /* its free was missed */
		if (b && t->window && t->w)
			put_alloc(t, ev->tid, b);
		break;
	case LK_EV_FREE:
	case LK_EV_REALLOC_FREE:
		/* Only blocks the trace has: a reader never sees an unknown free.
		 * A realloc that fails later brings the block back (UNDO). */
		if (b && (b->seq & LK_BLOCK_TRACED))
			put_free(t, ev->tid, b);
		break;
	case LK_EV_REALLOC_UNDO:
		if (b && (b->seq & LK_BLOCK_TRACED)) {
			b->seq &= ~LK_BLOCK_TRACED;
			if (t->window)
				put_alloc(t, ev->tid, b);
		}
		break;
	default:
		break;
	}
}

void lk_rtrace_mark(struct lk_rtrace *t, uint32_t tid, const char *text, int snapshot)
{
	if (!t->w)
		return;
	int rc = snapshot ? lk_trace_write_snapshot(t->w, t->now, tid, text)
			  : lk_trace_write_mark(t->w, t->now, tid, text);
	if (rc) {
		fail(t, rc);
		return;
	}
	t->events++;
	t->t_last = t->now;
}

/* ---- symbols and modules ------------------------------------------------ */

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The trace's id of the module mi, writing its MODULE record first. */
static uint32_t module_id(struct lk_rtrace *t, const struct lk_session_module_info *mi)
{
	for (size_t i = 0; i < t->n_mods; i++)
		if (t->mods[i].bias == mi->bias && !strcmp(t->mods[i].path, mi->path))
			return t->mods[i].id;
	if (t->n_mods == t->cap_mods) {
		size_t cap = t->cap_mods ? t->cap_mods * 2 : 16;
		struct lk_rtrace_module *n = realloc(t->mods, cap * sizeof(*n));
		if (!n)
			return 0;
		t->mods = n;
		t->cap_mods = cap;
	}
	uint8_t bid[LK_TRACE_BUILD_ID_MAX];
	int nb = lk_build_id(mi->path, bid, sizeof(bid));
	struct lk_trace_range r = {.start = mi->lo, .end = mi->hi};
	struct lk_trace_module m = {
		.id = (uint32_t)t->n_mods + 1, .t = t->now, .path = mi->path,
		.build_id = nb > 0 ? bid : NULL, .build_id_len = nb > 0 ? (size_t)nb : 0,
		.load_bias = mi->bias, .ranges = &r, .n_ranges = 1,
	};
	char *path = strdup(mi->path);
	int rc = path ? lk_trace_write_module(t->w, &m) : -ENOMEM;
	if (rc) {
		free(path);
		fail(t, rc);
		return 0;
	}
	t->mods[t->n_mods++] = (struct lk_rtrace_module){.path = path, .bias = mi->bias, .id = m.id};
	return m.id;
}

/* The pseudo frame of a group of blocks from before an attach, as the
 * leak report names it (analyze/leaks.c): "allocated before attach" in a
 * module "blocks of N bytes". */
static int attach_symbol(struct lk_rtrace *t, uint64_t ip, struct lk_frame_text *fr,
			 uint32_t *mod)
{
	uint64_t k = ip - LK_TRACE_ATTACH_IP;
	char name[64];
	if (!t->s || k >= t->s->n_attach_sizes)
		return -1;
	snprintf(name, sizeof(name), "blocks of %" PRIu64 " bytes", t->s->attach_sizes[k]);
	struct lk_session_module_info mi = {.path = name, .lo = ip, .hi = ip + 1};
	*mod = module_id(t, &mi);
	fr->function = strdup(LK_ATTACH_FRAME);
	fr->module = strdup(name);
	return 1;
}

/* Write the SYMBOL record of frame address ip. */
static void symbolize_one(struct lk_rtrace *t, struct lk_symbolizer *sym, uint64_t ip)
{
	struct lk_frame_text fr[LK_TRACE_INLINE_MAX];
	memset(fr, 0, sizeof(fr));
	struct lk_session_module_info mi;
	uint32_t mod = 0;
	int n = -1;
	if (ip >= LK_TRACE_ATTACH_IP && (n = attach_symbol(t, ip, fr, &mod)) > 0) {
		/* named */
	} else if (t->s && lk_session_module_info(t->s, ip, &mi) == 0) {
		mod = module_id(t, &mi);
		if (!t->w)
			return;
		n = lk_symbolize(sym, mi.path, mi.bias, ip, fr, LK_TRACE_INLINE_MAX);
		if (n < 0) {
			fr[0].module = strdup(base_name(mi.path));
			fr[0].offset = ip - mi.bias;
			n = 1;
		}
	} else {
		fr[0].module = strdup("?");
		fr[0].offset = ip;
		n = 1;
	}
	int rc = lk_trace_write_symbol(t->w, ip, mod, fr, (size_t)n);
	for (int i = 0; i < n; i++)
		lk_frame_text_release(&fr[i]);
	if (rc)
		fail(t, rc);
	else
		t->symbols++;
}

/* Symbolize queued addresses until deadline; 1 if some remain. */
static int symbolize(struct lk_rtrace *t, struct lk_symbolizer *sym, uint64_t deadline)
{
	for (unsigned k = 0; t->w && t->todo_n > 0; k++) {
		if ((k & 7) == 7 && deadline != UINT64_MAX && lk_rtrace_mono_ns() >= deadline)
			return 1;
		uint64_t ip = t->todo[t->todo_head++];
		t->todo_n--;
		symbolize_one(t, sym, ip);
	}
	if (t->todo_n == 0)
		t->todo_head = 0;
	return t->todo_n > 0 && t->w;
}

/* ---- samples, flushes, end --------------------------------------------- */

/* Between the periodic samples, one more at each drain (at most this
 * often) while the live bytes are above the last RSS sampled: a peak of
 * the heap gets its RSS, which a periodic sample would miss when the peak
 * is short (the first may come before the program touched its new pages:
 * the next drain samples again). */
#define PEAK_SAMPLE_NS 4000000u

static uint64_t rss_bytes(pid_t pid)
{
	char p[64], buf[128];
	snprintf(p, sizeof(p), "/proc/%d/statm", (int)pid);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	unsigned long long size, resident;
	if (sscanf(buf, "%llu %llu", &size, &resident) != 2)
		return 0;
	return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

static void sample(struct lk_rtrace *t, uint64_t mono_ns)
{
	const struct lk_live *l = &t->s->live;
	t->last_rss = rss_bytes(t->pid);
	t->last_sample = mono_ns;
	int rc = lk_trace_write_sample(t->w, t->now, t->last_rss, l->bytes, l->count);
	if (rc) {
		fail(t, rc);
		return;
	}
	t->events++;
	t->t_last = t->now;
}

int lk_rtrace_tick(struct lk_rtrace *t, struct lk_symbolizer *sym, uint64_t mono_ns,
		   uint64_t deadline_ns)
{
	if (!t->w || !t->s)
		return 0;
	lk_rtrace_clock(t, mono_ns);
	if (mono_ns >= t->next_sample) {
		sample(t, mono_ns);
		t->next_sample = mono_ns + t->sample_ns;
	} else if (t->s->live.bytes > t->last_rss && mono_ns >= t->last_sample + PEAK_SAMPLE_NS) {
		sample(t, mono_ns);
	}
	int more = symbolize(t, sym, deadline_ns);
	if (t->w && mono_ns >= t->next_flush) {
		int rc = lk_trace_writer_flush(t->w);
		if (rc)
			fail(t, rc);
		t->next_flush = mono_ns + t->flush_ns;
	}
	return more;
}

/* The program overwrote leakscope's shared memory: the trace says so, in
 * a mark at its end, and keeps the sentence for the recording's summary. */
static void note_region(struct lk_rtrace *t)
{
	const char *note = lk_session_note(t->s);
	if (!note || t->region_note)
		return;
	t->region_note = strdup(note);
	if (t->w) {
		char text[256];
		snprintf(text, sizeof(text), "leakscope: %s", note);
		lk_rtrace_mark(t, 0, text, 0);
	}
}

/* ---- verdicts ---------------------------------------------------------- */

/* Why the trace has no verdict of a scan, or how the scan was made. */
static const char *scan_note(const struct lk_session *s)
{
	const char *note = lk_leaks_scan_note(s);
	if (note || s->classes || s->fixed)
		return note;
	if (s->state == LK_SESSION_EXECED)
		return "no reachability scan: the process replaced its program (exec), "
		       "and what it had allocated went with it";
	if (s->state == LK_SESSION_RUNNING)
		return "no reachability scan: the recording stopped before the process ended";
	return "no reachability scan: recorded with --no-scan";
}

static int by_number(const void *a, const void *b)
{
	const struct lk_trace_block_verdict *x = a, *y = b;
	return (x->number > y->number) - (x->number < y->number);
}

/* The verdicts the session fixed by block when events came after its scan
 * (a block allocated since has none: not freed; one freed since is not
 * looked up). */
static struct lk_trace_block_verdict *fixed_verdicts(struct lk_rtrace *t, size_t *n)
{
	const struct lk_session *s = t->s;
	struct lk_trace_block_verdict *v = malloc((s->n_fixed + 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; v && i < s->n_fixed; i++) {
		const struct lk_fixed_verdict *f = &s->fixed[i];
		if (!(f->seq & LK_BLOCK_TRACED))
			continue;
		struct lk_trace_block_verdict *x = &v[(*n)++];
		*x = (struct lk_trace_block_verdict){.number = LK_BLOCK_NUMBER(f->seq), .cls = f->cls};
		if (f->seq & LK_BLOCK_IGNORED)
			x->cls = LK_TRACE_IGNORED;
		else if (x->cls == LK_TRACE_INDIRECT)
			x->leader = map_stack(t, f->leader_stack);
	}
	if (v)
		qsort(v, *n, sizeof(*v), by_number);
	return v;
}

/* The verdict of each block of the trace still live (the scan's at the
 * process's end, analyze/leaks.h): a new array of *n, by number. The
 * leaders' stacks are defined in the trace as they are met. */
static struct lk_trace_block_verdict *verdicts(struct lk_rtrace *t, size_t *n)
{
	const struct lk_session *s = t->s;
	if (!s->classes)
		return fixed_verdicts(t, n);
	struct lk_trace_block_verdict *v = malloc((s->live.count + 1) * sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	lk_live_foreach(&s->live, b) {
		if (!(b->seq & LK_BLOCK_TRACED))
			continue;
		size_t slot = (size_t)(b - s->live.slots);
		struct lk_trace_block_verdict *x = &v[(*n)++];
		*x = (struct lk_trace_block_verdict){.number = LK_BLOCK_NUMBER(b->seq),
						     .cls = s->classes[slot]};
		if (b->seq & LK_BLOCK_IGNORED)
			x->cls = LK_TRACE_IGNORED;
		else if (x->cls == LK_TRACE_INDIRECT && s->leaders &&
			 s->leaders[slot] < s->live.cap && s->live.slots[s->leaders[slot]].addr)
			x->leader = map_stack(t, s->live.slots[s->leaders[slot]].stack);
	}
	qsort(v, *n, sizeof(*v), by_number);
	return v;
}

/* The CLASSES chunk: how the blocks still live were judged. */
static void write_verdicts(struct lk_rtrace *t, struct lk_symbolizer *sym)
{
	const struct lk_session *s = t->s;
	int scanned = s->classes || s->fixed;
	struct lk_trace_scan scan = {.state = scanned ? LK_TRACE_SCANNED : LK_TRACE_NOT_SCANNED,
				     .note = scan_note(s), .heap_note = scanned ? s->go_note : NULL};
	size_t n = 0;
	struct lk_trace_block_verdict *v = scanned ? verdicts(t, &n) : NULL;
	if (scanned && !v) {
		fail(t, -ENOMEM);
		return;
	}
	symbolize(t, sym, UINT64_MAX);   /* the leaders' stacks */
	int rc = t->w ? lk_trace_write_classes(t->w, &scan, v, n) : 0;
	free(v);
	if (rc)
		fail(t, rc);
}

void lk_rtrace_close(struct lk_rtrace *t, struct lk_symbolizer *sym)
{
	if (t->s)
		note_region(t);
	if (t->w) {
		symbolize(t, sym, UINT64_MAX);
		if (t->w && t->s)
			write_verdicts(t, sym);
		if (t->w) {
			uint64_t before_end = lk_trace_writer_offset(t->w);
			int rc = lk_trace_writer_close(t->w);
			t->w = NULL;
			/* the size: where the file's offset is (a pipe has none) */
			off_t at = lseek(t->fd, 0, SEEK_CUR);
			t->bytes = at > 0 ? (uint64_t)at : before_end;
			/* a file system may say only now that the bytes did not fit */
			if (close(t->fd) != 0 && !rc)
				rc = lk_error_set(-errno, "cannot close the trace");
			t->fd = -1;
			if (rc)
				fail(t, rc);
		}
	}
	t->s = NULL;
}

void lk_rtrace_free(struct lk_rtrace *t)
{
	if (!t)
		return;
	lk_trace_writer_abandon(t->w);
	if (t->fd >= 0)
		close(t->fd);
	for (size_t i = 0; i < t->n_mods; i++)
		free(t->mods[i].path);
	free(t->mods);
	free(t->stack_map);
	free(t->attach_map);
	free(t->seen);
	free(t->todo);
	free(t->path);
	free(t->comm);
	free(t->region_note);
	free(t);
}
