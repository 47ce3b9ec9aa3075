/*
 * writer.c - the trace writer (writer.h; bytes as in format.h).
 *
 * Owns the encode buffers (one per stream of the EVENTS chunk, and the
 * stacks, modules and symbols), a zstd context and an output buffer that
 * receives the chunks of one flush, so that each flush is one write().
 * Events are coded against the model of model.h, which the reader keeps
 * too, and restarts with each chunk; the live blocks (livemap.h) give a
 * free the number of the allocation it ends, and that allocation's size,
 * unless the caller keeps the numbers itself (a numbered writer).
 * Never prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "common/error.h"
#include "common/files.h"
#include "trace/format.h"
#include "trace/livemap.h"
#include "trace/model.h"
#include "trace/writer.h"

#define EV_RECORD_MAX 64u        /* what a record adds to one stream, but text */
#define EV_CAP (LK_TRACE_CHUNK_TARGET + LK_TRACE_TEXT_MAX + EV_RECORD_MAX)

struct buf {
	uint8_t *b;
	size_t len, cap;
};

struct lk_trace_writer {
	int fd, own_fd;
	int level, stored, numbered;
	int err;                  /* first failure, sticky */
	uint64_t offset;          /* bytes in the file */
	uint32_t seq;             /* next chunk's sequence number */
	ZSTD_CCtx *cctx;
	struct buf out, tmp;

	struct buf ev[LK_EVS_COUNT];  /* EVENTS chunk being built, by stream */
	uint32_t ev_count;
	uint64_t ev_first;
	uint64_t ev_allocs;       /* allocations before the EVENTS chunk */
	uint64_t free_guess;      /* what a FREE_NEXT is coded against */
	uint64_t t;               /* time of the last event of the file */
	struct lk_trace_model *m; /* what the events are coded against */
	struct lk_livemap live;   /* address -> allocation number, size */

	struct buf stk;
	uint32_t stk_count;
	uint64_t stk_prev0;
	struct buf mod;
	uint32_t mod_count;
	struct buf sym;
	uint32_t sym_count;

	uint32_t n_stacks, n_modules;   /* ids defined so far */
	struct lk_trace_totals tot;
};

static int reserve(struct buf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more)
		cap *= 2;
	uint8_t *nb = realloc(b->b, cap);
	if (!nb)
		return -ENOMEM;
	b->b = nb;
	b->cap = cap;
	return 0;
}

static int fail(struct lk_trace_writer *w, int code)
{
	if (!w->err)
		w->err = code;
	return w->err;
}

static int write_all(struct lk_trace_writer *w, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(w->fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			int e = -errno;
			lk_error_set(e, "cannot write the trace at offset %llu",
				     (unsigned long long)w->offset);
			return fail(w, e);
		}
		p += k;
		n -= (size_t)k;
		w->offset += (uint64_t)k;
	}
	return 0;
}

/* zstd-compress [raw, raw + len) into dst (room for ZSTD_compressBound):
 * the compressed size, or 0 when it would not be smaller. */
static size_t squeeze(struct lk_trace_writer *w, uint8_t *dst, const uint8_t *raw, size_t len)
{
	if (w->stored || len == 0)
		return 0;
	size_t z = ZSTD_compressCCtx(w->cctx, dst, ZSTD_compressBound(len), raw, len, w->level);
	if (ZSTD_isError(z)) {
		lk_error_set(LK_EFORMAT, "zstd: %s", ZSTD_getErrorName(z));
		fail(w, -EIO);
		return 0;
	}
	return z < len ? z : 0;
}

/* Append one chunk (header + payload) to w->out; the payload compressed as
 * a whole unless `as_is`. */
static int emit(struct lk_trace_writer *w, int type, const uint8_t *raw, size_t len,
		uint32_t count, uint64_t t0, uint64_t t1, int as_is)
{
	size_t bound = ZSTD_compressBound(len);
	if (reserve(&w->out, LK_CHUNK_HEADER_SIZE + (bound > len ? bound : len)))
		return fail(w, -ENOMEM);
	uint8_t *hdr = w->out.b + w->out.len;
	uint8_t *pl = hdr + LK_CHUNK_HEADER_SIZE;
	struct lk_chunk_header h = {
		.type = (uint8_t)type, .codec = LK_CODEC_STORED,
		.stored_size = (uint32_t)len, .raw_size = (uint32_t)len,
		.count = count, .seq = w->seq++, .t_first = t0, .t_last = t1,
	};
	size_t z = as_is ? 0 : squeeze(w, pl, raw, len);
	if (w->err)
		return w->err;
	if (z) {
		h.codec = LK_CODEC_ZSTD;
		h.stored_size = (uint32_t)z;
	}
	if (h.codec == LK_CODEC_STORED && len > 0)
		memcpy(pl, raw, len);
	h.crc = lk_trace_crc32(0, pl, h.stored_size);
	lk_trace_chunk_header_put(hdr, &h);
	w->out.len += LK_CHUNK_HEADER_SIZE + h.stored_size;
	return 0;
}

static void reset_events(struct lk_trace_writer *w)
{
	for (int i = 0; i < LK_EVS_COUNT; i++)
		w->ev[i].len = 0;
	w->ev_count = 0;
	w->ev_allocs = w->free_guess = w->tot.allocs;
	lk_trace_model_reset(w->m);
}

#define EV_DIR_MAX (10 * (2 * LK_EVS_COUNT + 2))

/* The EVENTS chunk: allocations before it, the stream directory, then each
 * stream compressed on its own (format.h). The streams go to w->tmp behind
 * room for the directory, which is put right in front of them. */
static int emit_events(struct lk_trace_writer *w)
{
	size_t total = EV_DIR_MAX;
	for (int i = 0; i < LK_EVS_COUNT; i++)
		total += ZSTD_compressBound(w->ev[i].len);
	w->tmp.len = 0;
	if (reserve(&w->tmp, total))
		return fail(w, -ENOMEM);
	uint8_t dir[EV_DIR_MAX], *p = dir;
	p = lk_put_varint(p, w->ev_allocs);
	p = lk_put_varint(p, LK_EVS_COUNT);
	size_t len = EV_DIR_MAX;
	for (int i = 0; i < LK_EVS_COUNT; i++) {
		uint8_t *dst = w->tmp.b + len;
		size_t z = squeeze(w, dst, w->ev[i].b, w->ev[i].len);
		if (w->err)
			return w->err;
		if (!z)
			memcpy(dst, w->ev[i].b, w->ev[i].len);
		len += z ? z : w->ev[i].len;
		p = lk_put_varint(p, w->ev[i].len);
		p = lk_put_varint(p, z ? z : w->ev[i].len);
	}
	size_t n = (size_t)(p - dir);
	uint8_t *payload = w->tmp.b + EV_DIR_MAX - n;
	memcpy(payload, dir, n);
	return emit(w, LK_CHUNK_EVENTS, payload, len - (EV_DIR_MAX - n), w->ev_count,
		    w->ev_first, w->t, 1);
}

int lk_trace_writer_flush(struct lk_trace_writer *w)
{
	if (w->err)
		return w->err;
	w->out.len = 0;
	int rc = 0;
	/* Definitions carry the time of the events that follow them, so that
	 * chunk times never go backwards in the file. */
	uint64_t td = w->ev_count ? w->ev_first : w->t;
	if (w->mod_count)
		rc = emit(w, LK_CHUNK_MODULES, w->mod.b, w->mod.len, w->mod_count, td, td, 0);
	if (!rc && w->sym_count)
		rc = emit(w, LK_CHUNK_SYMBOLS, w->sym.b, w->sym.len, w->sym_count, td, td, 0);
	if (!rc && w->stk_count)
		rc = emit(w, LK_CHUNK_STACKS, w->stk.b, w->stk.len, w->stk_count, td, td, 0);
	if (!rc && w->ev_count)
		rc = emit_events(w);
	if (rc)
		return rc;
	w->mod.len = w->sym.len = w->stk.len = 0;
	w->mod_count = w->sym_count = w->stk_count = 0;
	w->stk_prev0 = 0;
	reset_events(w);
	if (w->out.len == 0)
		return 0;
	rc = write_all(w, w->out.b, w->out.len);
	/* Keep the output buffer from holding a rare huge flush forever. */
	if (w->out.cap > 4 * EV_CAP) {
		free(w->out.b);
		w->out.b = NULL;
		w->out.cap = w->out.len = 0;
	}
	return rc;
}

static int write_header(struct lk_trace_writer *w, const struct lk_trace_meta *m)
{
	size_t L = m->cmdline ? m->cmdline_len : 0;
	if (L > LK_TRACE_CMDLINE_MAX)
		L = LK_TRACE_CMDLINE_MAX;
	size_t H = LK_TRACE_HEADER_MIN + L;
	uint8_t *h = calloc(1, H);
	if (!h)
		return -ENOMEM;
	memcpy(h, LK_TRACE_MAGIC, LK_TRACE_MAGIC_LEN);
	lk_put_le32(h + 8, LK_TRACE_VERSION);
	lk_put_le32(h + 12, LK_TRACE_MINOR);
	lk_put_le32(h + 16, (uint32_t)H);
	lk_put_le32(h + 20, m->pid);
	lk_put_le64(h + 24, m->start_ns);
	lk_put_le32(h + 32, m->tick_ns ? m->tick_ns : 1000);
	lk_put_le32(h + 36, m->clock_res_ns);
	lk_put_le32(h + 40, 0);
	lk_put_le32(h + 44, (uint32_t)L);
	if (L)
		memcpy(h + 48, m->cmdline, L);
	lk_put_le32(h + H - 4, lk_trace_crc32(0, h, H - 4));
	int rc = write_all(w, h, H);
	free(h);
	return rc;
}

int lk_trace_writer_fdopen(int fd, const struct lk_trace_meta *meta,
			   const struct lk_trace_writer_options *opt,
			   struct lk_trace_writer **out)
{
	*out = NULL;
	struct lk_trace_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->level = opt && opt->level > 0 ? opt->level : 1;
	w->stored = opt ? opt->stored : 0;
	w->numbered = opt ? opt->numbered : 0;
	w->cctx = ZSTD_createCCtx();
	w->m = malloc(sizeof(*w->m));
	int nomem = !w->cctx || !w->m || lk_livemap_init(&w->live);
	for (int i = 0; i < LK_EVS_COUNT; i++) {
		w->ev[i].b = malloc(EV_CAP);
		w->ev[i].cap = EV_CAP;
		nomem |= !w->ev[i].b;
	}
	if (nomem) {
		lk_trace_writer_abandon(w);
		return -ENOMEM;
	}
	reset_events(w);
	int rc = write_header(w, meta);
	if (rc) {
		lk_trace_writer_abandon(w);
		return rc;
	}
	*out = w;
	return 0;
}

int lk_trace_writer_open(const char *path, const struct lk_trace_meta *meta,
			 const struct lk_trace_writer_options *opt,
			 struct lk_trace_writer **out)
{
	*out = NULL;
	int fd = lk_file_open_write(path, LK_FILE_TRUNC, 0600);
	if (fd < 0)
		return lk_error_set(fd, "cannot create '%s'", path);
	int rc = lk_trace_writer_fdopen(fd, meta, opt, out);
	if (rc) {
		close(fd);
		return rc;
	}
	(*out)->own_fd = 1;
	return 0;
}

uint64_t lk_trace_writer_offset(const struct lk_trace_writer *w)
{
	return w->offset;
}

/* ---- events ----------------------------------------------------------- */

/* Before a record (at most EV_RECORD_MAX + LK_TRACE_TEXT_MAX bytes, which
 * EV_CAP leaves room for): close the EVENTS chunk when it is full. */
static inline int ev_room(struct lk_trace_writer *w)
{
	if (w->err)
		return w->err;
	size_t n = 0;
	for (int i = 0; i < LK_EVS_COUNT; i++)
		n += w->ev[i].len;
	if (n >= LK_TRACE_CHUNK_TARGET)
		return lk_trace_writer_flush(w);
	return 0;
}

/* Append v to stream i. */
static inline void sput(struct lk_trace_writer *w, int i, uint64_t v)
{
	struct buf *b = &w->ev[i];
	b->len = (size_t)(lk_put_varint(b->b + b->len, v) - b->b);
}

/* Write tag, time delta and thread of an event; returns the thread's entry
 * (NULL for no thread). */
static inline struct lk_trace_thread *ev_head(struct lk_trace_writer *w, unsigned kind,
					      uint64_t t, int has_tid, uint32_t tid)
{
	if (t < w->t)
		t = w->t;
	uint64_t dt;
	if (w->ev_count == 0) {
		w->ev_first = t;
		dt = 0;
	} else {
		dt = t - w->t;
	}
	w->t = t;
	w->ev_count++;
	w->tot.events++;

	unsigned code = 0;
	struct lk_trace_thread *th = NULL;
	if (has_tid) {
		int i = lk_trace_model_find(w->m, tid);
		if (i >= 0) {
			code = (unsigned)i;
			th = lk_trace_model_use(w->m, i);
		} else {
			code = LK_TAG_THREAD_LITERAL;
			th = lk_trace_model_enter(w->m, tid);
			sput(w, LK_EVS_TID, tid);
		}
	}
	unsigned dcode = dt < LK_TAG_DT_VARINT ? (unsigned)dt : LK_TAG_DT_VARINT;
	struct buf *tags = &w->ev[LK_EVS_TAG];
	tags->b[tags->len++] = LK_TAG(kind, code, dcode);
	if (dcode == LK_TAG_DT_VARINT)
		sput(w, LK_EVS_TIME, dt - LK_TAG_DT_VARINT);
	return th;
}

/* The FREE or FREE_NEXT of a live block (its number, address and size). */
static void put_free(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
		     uint64_t serial, uint64_t addr, uint64_t size)
{
	uint64_t back = w->tot.allocs - serial - 1, next = lk_zigzag(serial - w->free_guess);
	int by_next = lk_varint_len(next) < lk_varint_len(back);
	struct lk_trace_thread *th = ev_head(w, by_next ? LK_EVK_FREE_NEXT : LK_EVK_FREE, t, 1, tid);
	sput(w, LK_EVS_REF, by_next ? next : back);
	w->free_guess = serial + 1;
	lk_trace_model_freed(w->m, th, addr, size);
	w->tot.frees++;
}

int lk_trace_write_alloc(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
			 uint64_t addr, uint64_t size, uint32_t stack)
{
	int rc = ev_room(w);
	if (rc)
		return rc;
	if (stack > w->n_stacks)
		return lk_error_set(-EINVAL, "stack %u is not defined", stack);
	if (!addr)
		return 0;                 /* a failed allocation */
	struct lk_livemap_entry *e = w->numbered ? NULL : lk_livemap_get(&w->live, addr);
	if (e) {                          /* its free was missed: it is gone */
		put_free(w, t, tid, e->a, addr, e->b);
		e->a = w->tot.allocs;
		e->b = size;
	} else if (!w->numbered && lk_livemap_put(&w->live, addr, w->tot.allocs, size)) {
		return fail(w, -ENOMEM);
	}
	struct lk_trace_thread *th = ev_head(w, LK_EVK_ALLOC, t, 1, tid);
	unsigned c = lk_trace_class(size);
	sput(w, LK_EVS_STACK, stack);
	sput(w, LK_EVS_SIZE, size);
	sput(w, LK_EVS_ADDR, lk_zigzag(addr - lk_trace_model_alloc_base(w->m, th, c)));
	lk_trace_model_alloc(w->m, th, c, addr);
	w->tot.allocs++;
	w->tot.bytes_allocated += size;
	return 0;
}

int lk_trace_write_free_number(struct lk_trace_writer *w, uint64_t t, uint32_t tid,
			       uint64_t number, uint64_t addr, uint64_t size)
{
	int rc = ev_room(w);
	if (rc)
		return rc;
	if (!w->numbered || number >= w->tot.allocs)
		return lk_error_set(-EINVAL, "free of allocation %llu (%llu made)",
				    (unsigned long long)number, (unsigned long long)w->tot.allocs);
	put_free(w, t, tid, number, addr, size);
	return 0;
}

uint64_t lk_trace_writer_allocs(const struct lk_trace_writer *w)
{
	return w->tot.allocs;
}

int lk_trace_write_free(struct lk_trace_writer *w, uint64_t t, uint32_t tid, uint64_t addr)
{
	int rc = ev_room(w);
	if (rc)
		return rc;
	if (w->numbered)
		return lk_error_set(-EINVAL, "free by address on a numbered writer");
	uint64_t serial, size;
	if (lk_livemap_del(&w->live, addr, &serial, &size))
		return 0;                 /* not a block of the trace */
	put_free(w, t, tid, serial, addr, size);
	return 0;
}

static int write_text(struct lk_trace_writer *w, unsigned kind, uint64_t t,
		      uint32_t tid, const char *text)
{
	int rc = ev_room(w);
	if (rc)
		return rc;
	size_t n = text ? strnlen(text, LK_TRACE_TEXT_MAX) : 0;
	ev_head(w, kind, t, 1, tid);
	sput(w, LK_EVS_DATA, n);
	struct buf *d = &w->ev[LK_EVS_DATA];
	if (n)
		memcpy(d->b + d->len, text, n);
	d->len += n;
	return 0;
}

int lk_trace_write_mark(struct lk_trace_writer *w, uint64_t t, uint32_t tid, const char *text)
{
	return write_text(w, LK_EVK_MARK, t, tid, text);
}

int lk_trace_write_snapshot(struct lk_trace_writer *w, uint64_t t, uint32_t tid, const char *name)
{
	return write_text(w, LK_EVK_SNAPSHOT, t, tid, name);
}

int lk_trace_write_sample(struct lk_trace_writer *w, uint64_t t, uint64_t rss,
			  uint64_t live_bytes, uint64_t live_blocks)
{
	int rc = ev_room(w);
	if (rc)
		return rc;
	ev_head(w, LK_EVK_SAMPLE, t, 0, 0);
	sput(w, LK_EVS_DATA, rss);
	sput(w, LK_EVS_DATA, live_bytes);
	sput(w, LK_EVS_DATA, live_blocks);
	return 0;
}

/* ---- definitions ------------------------------------------------------ */

/* After appending to a definition buffer: close the chunks when it is full. */
static int def_done(struct lk_trace_writer *w, const struct buf *b)
{
	return b->len >= LK_TRACE_CHUNK_TARGET ? lk_trace_writer_flush(w) : 0;
}

int lk_trace_write_stack(struct lk_trace_writer *w, uint32_t id, const uint64_t *frames, size_t n)
{
	if (w->err)
		return w->err;
	if (id != w->n_stacks + 1)
		return lk_error_set(-EINVAL, "stack id %u out of order (next is %u)", id, w->n_stacks + 1);
	if (n < 1 || n > LK_TRACE_FRAMES_MAX)
		return lk_error_set(-EINVAL, "stack %u has %zu frames", id, n);
	if (reserve(&w->stk, 20 + 10 * n))
		return fail(w, -ENOMEM);
	uint8_t *p = w->stk.b + w->stk.len;
	if (w->stk_count == 0)
		p = lk_put_varint(p, id);
	p = lk_put_varint(p, n);
	p = lk_put_varint(p, lk_zigzag(frames[0] - w->stk_prev0));
	for (size_t i = 1; i < n; i++)
		p = lk_put_varint(p, lk_zigzag(frames[i] - frames[i - 1]));
	w->stk_prev0 = frames[0];
	w->stk.len = (size_t)(p - w->stk.b);
	w->stk_count++;
	w->n_stacks++;
	w->tot.stacks++;
	return def_done(w, &w->stk);
}

static uint8_t *put_bytes(uint8_t *p, const void *s, size_t n)
{
	p = lk_put_varint(p, n + 1);
	if (n)
		memcpy(p, s, n);
	return p + n;
}

static uint8_t *put_str(uint8_t *p, const char *s)
{
	if (!s)
		return lk_put_varint(p, 0);
	return put_bytes(p, s, strnlen(s, LK_TRACE_STRING_MAX));
}

/* Append w->tmp as a length-prefixed record to b. */
static int put_record(struct lk_trace_writer *w, struct buf *b)
{
	if (reserve(b, 10 + w->tmp.len))
		return fail(w, -ENOMEM);
	uint8_t *p = lk_put_varint(b->b + b->len, w->tmp.len);
	memcpy(p, w->tmp.b, w->tmp.len);
	b->len = (size_t)(p + w->tmp.len - b->b);
	return 0;
}

int lk_trace_write_module(struct lk_trace_writer *w, const struct lk_trace_module *m)
{
	if (w->err)
		return w->err;
	if (m->id != w->n_modules + 1)
		return lk_error_set(-EINVAL, "module id %u out of order (next is %u)",
				    m->id, w->n_modules + 1);
	if (m->n_ranges > LK_TRACE_RANGES_MAX || m->build_id_len > LK_TRACE_BUILD_ID_MAX)
		return lk_error_set(-EINVAL, "module %u: too many ranges or build id too long", m->id);
	w->tmp.len = 0;
	if (reserve(&w->tmp, 64 + LK_TRACE_STRING_MAX + LK_TRACE_BUILD_ID_MAX + 40 * m->n_ranges))
		return fail(w, -ENOMEM);
	uint8_t *p = w->tmp.b;
	p = lk_put_varint(p, m->id);
	p = lk_put_varint(p, m->t);
	p = lk_put_varint(p, m->load_bias);
	p = put_str(p, m->path);
	p = m->build_id ? put_bytes(p, m->build_id, m->build_id_len) : lk_put_varint(p, 0);
	p = lk_put_varint(p, m->n_ranges);
	for (size_t i = 0; i < m->n_ranges; i++) {
		const struct lk_trace_range *r = &m->ranges[i];
		p = lk_put_varint(p, r->start);
		p = lk_put_varint(p, r->end - r->start);
		p = lk_put_varint(p, r->file_offset);
		p = lk_put_varint(p, r->prot);
	}
	w->tmp.len = (size_t)(p - w->tmp.b);
	int rc = put_record(w, &w->mod);
	if (rc)
		return rc;
	w->mod_count++;
	w->n_modules++;
	w->tot.modules++;
	return def_done(w, &w->mod);
}

int lk_trace_write_symbol(struct lk_trace_writer *w, uint64_t addr, uint32_t module,
			  const struct lk_frame_text *frames, size_t n)
{
	if (w->err)
		return w->err;
	if (n < 1 || n > LK_TRACE_INLINE_MAX)
		return lk_error_set(-EINVAL, "symbol of %#llx has %zu frames",
				    (unsigned long long)addr, n);
	if (module > w->n_modules)
		return lk_error_set(-EINVAL, "module %u is not defined", module);
	w->tmp.len = 0;
	if (reserve(&w->tmp, 40 + n * (40 + 3 * (LK_TRACE_STRING_MAX + 10))))
		return fail(w, -ENOMEM);
	uint8_t *p = w->tmp.b;
	p = lk_put_varint(p, addr);
	p = lk_put_varint(p, module);
	p = lk_put_varint(p, n);
	for (size_t i = 0; i < n; i++) {
		const struct lk_frame_text *f = &frames[i];
		p = lk_put_varint(p, f->inlined ? 1 : 0);
		p = lk_put_varint(p, f->line > 0 ? (uint64_t)f->line : 0);
		p = lk_put_varint(p, f->offset);
		p = put_str(p, f->function);
		p = put_str(p, f->file);
		p = put_str(p, f->module);
	}
	w->tmp.len = (size_t)(p - w->tmp.b);
	int rc = put_record(w, &w->sym);
	if (rc)
		return rc;
	w->sym_count++;
	w->tot.symbols++;
	return def_done(w, &w->sym);
}

/* ---- verdicts ---------------------------------------------------------- */

/* The scan record into w->tmp. */
static int scan_record(struct lk_trace_writer *w, const struct lk_trace_scan *scan)
{
	w->tmp.len = 0;
	if (reserve(&w->tmp, 30 + 2 * LK_TRACE_STRING_MAX))
		return fail(w, -ENOMEM);
	uint8_t *p = w->tmp.b;
	p = lk_put_varint(p, (uint64_t)scan->state);
	p = put_str(p, scan->note);
	p = put_str(p, scan->heap_note);
	w->tmp.len = (size_t)(p - w->tmp.b);
	return 0;
}

/* One CLASSES chunk: the scan record in w->tmp, then blocks [*i, n) until
 * the chunk is full. */
static int emit_classes(struct lk_trace_writer *w, const struct lk_trace_block_verdict *blocks,
			size_t n, size_t *i, uint64_t *next)
{
	struct buf b = {0};
	int rc = put_record(w, &b);
	uint32_t count = 1;
	for (; !rc && *i < n && b.len < LK_TRACE_CHUNK_TARGET; (*i)++, count++) {
		const struct lk_trace_block_verdict *c = &blocks[*i];
		if (reserve(&b, 20)) {
			rc = fail(w, -ENOMEM);
			break;
		}
		uint8_t *p = lk_put_varint(b.b + b.len, c->number - *next);
		p = lk_put_varint(p, (uint64_t)c->leader << 3 | c->cls);
		b.len = (size_t)(p - b.b);
		*next = c->number + 1;
	}
	if (!rc)
		rc = emit(w, LK_CHUNK_CLASSES, b.b, b.len, count, w->t, w->t, 0);
	free(b.b);
	return rc;
}

int lk_trace_write_classes(struct lk_trace_writer *w, const struct lk_trace_scan *scan,
			   const struct lk_trace_block_verdict *blocks, size_t n)
{
	uint64_t next = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lk_trace_block_verdict *c = &blocks[i];
		if (c->number < next || c->number >= w->tot.allocs || c->cls >= LK_TRACE_CLASS_COUNT ||
		    c->leader > w->n_stacks || (c->leader && c->cls != LK_TRACE_INDIRECT))
			return lk_error_set(-EINVAL, "verdict %zu (allocation %llu) out of order "
					    "or out of range", i, (unsigned long long)c->number);
		next = c->number + 1;
	}
	int rc = lk_trace_writer_flush(w);
	if (!rc)
		rc = scan_record(w, scan);
	w->out.len = 0;
	next = 0;
	for (size_t i = 0; !rc && (i < n || w->out.len == 0);)
		rc = emit_classes(w, blocks, n, &i, &next);
	if (!rc)
		rc = write_all(w, w->out.b, w->out.len);
	w->out.len = 0;
	return rc;
}

/* ---- end -------------------------------------------------------------- */

void lk_trace_writer_abandon(struct lk_trace_writer *w)
{
	if (!w)
		return;
	if (w->own_fd)
		close(w->fd);
	ZSTD_freeCCtx(w->cctx);
	free(w->m);
	lk_livemap_release(&w->live);
	for (int i = 0; i < LK_EVS_COUNT; i++)
		free(w->ev[i].b);
	free(w->stk.b);
	free(w->mod.b);
	free(w->sym.b);
	free(w->out.b);
	free(w->tmp.b);
	free(w);
}

int lk_trace_writer_close(struct lk_trace_writer *w)
{
	int rc = lk_trace_writer_flush(w);
	if (!rc) {
		uint8_t end[10 * 9], *p = end;
		w->tot.chunks = w->seq;
		w->tot.t_last = w->t;
		p = lk_put_varint(p, w->tot.events);
		p = lk_put_varint(p, w->tot.allocs);
		p = lk_put_varint(p, w->tot.frees);
		p = lk_put_varint(p, w->tot.bytes_allocated);
		p = lk_put_varint(p, w->tot.stacks);
		p = lk_put_varint(p, w->tot.modules);
		p = lk_put_varint(p, w->tot.symbols);
		p = lk_put_varint(p, w->tot.chunks);
		p = lk_put_varint(p, w->tot.t_last);
		w->out.len = 0;
		/* 40 bytes do not compress */
		rc = emit(w, LK_CHUNK_END, end, (size_t)(p - end), 1, w->t, w->t, 1);
		if (!rc)
			rc = write_all(w, w->out.b, w->out.len);
	}
	if (w->own_fd && close(w->fd) && !rc)
		rc = lk_error_set(-errno, "cannot close the trace");
	w->own_fd = 0;
	lk_trace_writer_abandon(w);
	return rc;
}
