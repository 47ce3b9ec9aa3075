/*
 * reader.c - the streaming trace reader (reader.h; bytes as in format.h).
 *
 * Holds the current chunk (stored and decoded buffers, each grown to the
 * largest chunk seen and never past the format's limits), fixed tables
 * (the coding model of the events, model.h, as the writer keeps it;
 * scratch space for one record's strings) and, record by record, the live
 * blocks (livemap.h) that give each free its address or its number. Every
 * length is checked against what the record really holds before use; a
 * failure names the offset of the chunk and the record. Never prints.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "common/error.h"
#include "common/hugeheap.h"
#include "trace/format.h"
#include "trace/livemap.h"
#include "trace/model.h"
#include "trace/reader.h"

struct lk_trace_reader {
	FILE *f;
	int flags;
	struct lk_trace_meta meta;
	char *cmdline;
	int err;                  /* sticky error (LK_ETRUNC: retried) */
	int done;                 /* END delivered */

	uint64_t off;             /* where the next chunk starts */
	uint64_t good_t;          /* last time of the last complete chunk */
	uint32_t next_seq;
	uint8_t *stored, *raw;
	size_t stored_cap, raw_cap;
	ZSTD_DCtx *dctx;

	struct lk_chunk_header ch;   /* the chunk being iterated */
	uint64_t ch_off;
	const uint8_t *p, *end;
	uint32_t left, index;

	const uint8_t *sp[LK_EVS_COUNT], *se[LK_EVS_COUNT];   /* EVENTS streams */
	uint64_t t;               /* EVENTS decoder state */
	struct lk_trace_model m;
	struct lk_livemap live;   /* 2.0: number -> address, size; 1.0: address -> number, size */
	uint64_t free_guess;      /* 2.0: what a FREE_NEXT is coded against */
	int bulk;                 /* EVENTS chunks go whole to the caller */

	uint32_t n_stacks, n_modules;
	uint64_t stk_prev0;
	struct lk_trace_totals counted, totals;
	int classes_seen;         /* a CLASSES chunk was read: no EVENTS may follow */
	uint64_t class_next;      /* the next block's number is at least this */
	struct lk_trace_scan scan;
	char scan_note[LK_TRACE_STRING_MAX + 1], heap_note[LK_TRACE_STRING_MAX + 1];

	uint64_t frames[LK_TRACE_FRAMES_MAX];
	struct lk_trace_module mod;
	struct lk_trace_range ranges[LK_TRACE_RANGES_MAX];
	uint8_t build_id[LK_TRACE_BUILD_ID_MAX + 1];
	char path[LK_TRACE_STRING_MAX + 1];
	struct lk_frame_text sym[LK_TRACE_INLINE_MAX];
	char symstr[3 * LK_TRACE_INLINE_MAX][LK_TRACE_STRING_MAX + 1];
	char text[LK_TRACE_TEXT_MAX + 1];
};

static const char *const chunk_names[] = {
	"", "EVENTS", "STACKS", "MODULES", "SYMBOLS", "END", "CLASSES",
};

/* " (last complete chunk ends at T s)" */
static const char *good_note(const struct lk_trace_reader *r, char *buf, size_t n)
{
	if (r->next_seq == 0)
		snprintf(buf, n, "no complete chunk");
	else
		snprintf(buf, n, "last complete chunk ends at %.3f s",
			 lk_trace_seconds(&r->meta, r->good_t));
	return buf;
}

static int truncated(struct lk_trace_reader *r, uint64_t at)
{
	char note[64];
	r->err = lk_error_set(LK_ETRUNC, "truncated at offset %llu (%s)",
			      (unsigned long long)at, good_note(r, note, sizeof(note)));
	return r->err;
}

static int corrupt_at(struct lk_trace_reader *r, int code, uint64_t at, const char *what)
{
	char note[64];
	r->err = lk_error_set(code, "corrupt trace at offset %llu: %s (%s)",
			      (unsigned long long)at, what, good_note(r, note, sizeof(note)));
	return r->err;
}

/* A bad record of the current chunk. */
static int bad(struct lk_trace_reader *r, const char *what)
{
	char msg[160];
	snprintf(msg, sizeof(msg), "%s in record %u of the %s chunk %u", what, r->index,
		 chunk_names[r->ch.type <= LK_CHUNK_CLASSES ? r->ch.type : 0], r->ch.seq);
	return corrupt_at(r, LK_EFORMAT, r->ch_off, msg);
}

static int io_error(struct lk_trace_reader *r)
{
	r->err = lk_error_set(-EIO, "cannot read the trace at offset %llu",
			      (unsigned long long)r->off);
	return r->err;
}

static int grow(uint8_t **b, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 65536;
	while (n < need)
		n *= 2;
	free(*b);
	*b = malloc(n);
	*cap = *b ? n : 0;
	return *b ? 0 : -ENOMEM;
}

/* ---- header ----------------------------------------------------------- */

static int read_header(struct lk_trace_reader *r)
{
	uint8_t h[LK_TRACE_HEADER_FIXED];
	size_t got = fread(h, 1, sizeof(h), r->f);
	if (ferror(r->f))
		return lk_error_set(-EIO, "cannot read the trace header");
	size_t m = got < LK_TRACE_MAGIC_LEN ? got : LK_TRACE_MAGIC_LEN;
	if (got == 0 || memcmp(h, LK_TRACE_MAGIC, m) != 0)
		return lk_error_set(LK_EFORMAT, "not a leakscope trace (no LKTRACE magic)");
	if (got < 16)
		return lk_error_set(LK_ETRUNC, "truncated at offset %zu (inside the file header)", got);
	uint32_t version = lk_get_le32(h + 8), minor = lk_get_le32(h + 12);
	if (version < LK_TRACE_VERSION_OLDEST)
		return lk_error_set(LK_EFORMAT, "bad trace format version %u", version);
	if (version > LK_TRACE_VERSION)
		return lk_error_set(LK_EVERSION,
				    "trace format version %u.%u is newer than this leakscope reads "
				    "(%u.%u): use a newer leakscope", version, minor,
				    LK_TRACE_VERSION, LK_TRACE_MINOR);
	if (got < sizeof(h))
		return lk_error_set(LK_ETRUNC, "truncated at offset %zu (inside the file header)", got);
	uint32_t H = lk_get_le32(h + 16), L = lk_get_le32(h + 44);
	if (H < LK_TRACE_HEADER_MIN || H > LK_TRACE_HEADER_MAX || L > LK_TRACE_CMDLINE_MAX ||
	    L > H - LK_TRACE_HEADER_MIN)
		return lk_error_set(LK_EFORMAT, "corrupt trace header (size %u, command line %u)", H, L);
	uint8_t *all = malloc(H);
	if (!all)
		return -ENOMEM;
	memcpy(all, h, sizeof(h));
	got = fread(all + sizeof(h), 1, H - sizeof(h), r->f);
	if (got < H - sizeof(h)) {
		free(all);
		if (ferror(r->f))
			return lk_error_set(-EIO, "cannot read the trace header");
		return lk_error_set(LK_ETRUNC, "truncated at offset %zu (inside the file header)",
				    sizeof(h) + got);
	}
	if (!(r->flags & LK_TRACE_NOVERIFY) &&
	    lk_get_le32(all + H - 4) != lk_trace_crc32(0, all, H - 4)) {
		free(all);
		return lk_error_set(LK_EFORMAT, "corrupt trace header (checksum mismatch)");
	}
	r->cmdline = malloc(L + 1);
	if (!r->cmdline) {
		free(all);
		return -ENOMEM;
	}
	memcpy(r->cmdline, all + 48, L);
	r->cmdline[L] = 0;
	r->meta.version = version;
	r->meta.minor = minor;
	r->meta.pid = lk_get_le32(h + 20);
	r->meta.start_ns = lk_get_le64(h + 24);
	r->meta.tick_ns = lk_get_le32(h + 32);
	r->meta.clock_res_ns = lk_get_le32(h + 36);
	r->meta.cmdline = r->cmdline;
	r->meta.cmdline_len = L;
	free(all);
	if (r->meta.tick_ns == 0)
		return lk_error_set(LK_EFORMAT, "corrupt trace header (tick of 0 ns)");
	r->off = H;
	return 0;
}

int lk_trace_reader_open(FILE *f, int flags, struct lk_trace_reader **out)
{
	*out = NULL;
	struct lk_trace_reader *r = lk_sparse_alloc(sizeof(*r));  /* buffers of the longest strings */
	if (!r)
		return -ENOMEM;
	r->f = f;
	r->flags = flags;
	r->dctx = ZSTD_createDCtx();
	int rc = r->dctx && !lk_livemap_init(&r->live) ? read_header(r) : -ENOMEM;
	if (rc) {
		lk_trace_reader_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

const struct lk_trace_meta *lk_trace_reader_meta(const struct lk_trace_reader *r)
{
	return &r->meta;
}

uint64_t lk_trace_reader_good_offset(const struct lk_trace_reader *r)
{
	return r->off;
}

uint64_t lk_trace_reader_good_time(const struct lk_trace_reader *r)
{
	return r->good_t;
}

void lk_trace_reader_close(struct lk_trace_reader *r)
{
	if (!r)
		return;
	ZSTD_freeDCtx(r->dctx);
	lk_livemap_release(&r->live);
	free(r->stored);
	free(r->raw);
	free(r->cmdline);
	lk_sparse_free(r, sizeof(*r));
}

/* ---- chunks ----------------------------------------------------------- */

/* Read, check and decode the next chunk into r->p .. r->end. */
static int load_chunk(struct lk_trace_reader *r)
{
	char msg[128];
	for (;;) {
		uint8_t hb[LK_CHUNK_HEADER_SIZE];
		size_t got = fread(hb, 1, sizeof(hb), r->f);
		if (got < sizeof(hb))
			return ferror(r->f) ? io_error(r) : truncated(r, r->off + got);
		struct lk_chunk_header h;
		int verify = !(r->flags & LK_TRACE_NOVERIFY);
		if (lk_trace_chunk_header_get(hb, &h, verify))
			return corrupt_at(r, LK_EFORMAT, r->off, "bad chunk header (magic or checksum)");
		if (h.seq != r->next_seq) {
			snprintf(msg, sizeof(msg), "chunk number %u where %u was expected", h.seq, r->next_seq);
			return corrupt_at(r, LK_EFORMAT, r->off, msg);
		}
		if (h.stored_size > LK_CHUNK_STORED_MAX || h.raw_size > LK_CHUNK_RAW_MAX) {
			snprintf(msg, sizeof(msg), "chunk of %u bytes (%u decoded) is over the limit",
				 h.stored_size, h.raw_size);
			return corrupt_at(r, LK_ELIMIT, r->off, msg);
		}
		if (h.codec > LK_CODEC_ZSTD || (h.codec == LK_CODEC_STORED && h.stored_size != h.raw_size))
			return corrupt_at(r, LK_EFORMAT, r->off, "unknown codec or bad sizes");
		if (h.type == LK_CHUNK_EVENTS && r->meta.version >= 2 && h.codec != LK_CODEC_STORED)
			return corrupt_at(r, LK_EFORMAT, r->off, "EVENTS chunk compressed as a whole");
		if (h.t_last < h.t_first || h.t_first < r->good_t)
			return corrupt_at(r, LK_EFORMAT, r->off, "chunk times go backwards");
		if (grow(&r->stored, &r->stored_cap, h.stored_size ? h.stored_size : 1))
			return r->err = -ENOMEM;
		got = fread(r->stored, 1, h.stored_size, r->f);
		if (got < h.stored_size)
			return ferror(r->f) ? io_error(r) : truncated(r, r->off + sizeof(hb) + got);
		if (verify && lk_trace_crc32(0, r->stored, h.stored_size) != h.crc)
			return corrupt_at(r, LK_EFORMAT, r->off, "chunk checksum mismatch");
		r->ch = h;
		r->ch_off = r->off;
		uint64_t next = r->off + sizeof(hb) + h.stored_size;
		if (h.type < LK_CHUNK_EVENTS || h.type > LK_CHUNK_CLASSES) {
			if (r->meta.minor <= LK_TRACE_MINOR) {
				snprintf(msg, sizeof(msg), "unknown chunk type %u", h.type);
				return corrupt_at(r, LK_EFORMAT, r->off, msg);
			}
			r->off = next;            /* a newer minor's addition */
			r->next_seq++;
			r->good_t = h.t_last;
			continue;
		}
		if (h.codec == LK_CODEC_STORED) {
			r->p = r->stored;
		} else {
			if (grow(&r->raw, &r->raw_cap, h.raw_size ? h.raw_size : 1))
				return r->err = -ENOMEM;
			size_t n = ZSTD_decompressDCtx(r->dctx, r->raw, h.raw_size, r->stored, h.stored_size);
			if (ZSTD_isError(n) || n != h.raw_size) {
				snprintf(msg, sizeof(msg), "cannot decompress the chunk (%s)",
					 ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size");
				return corrupt_at(r, LK_EFORMAT, r->off, msg);
			}
			r->p = r->raw;
		}
		r->end = r->p + h.raw_size;
		r->left = h.count;
		r->index = 0;
		r->off = next;
		r->next_seq++;
		r->good_t = h.t_last;
		return 0;
	}
}

/* ---- records ---------------------------------------------------------- */

/* Zero a record field by field: memset of the whole struct is a `rep stos`
 * that costs more than decoding an event. */
static inline void clear(struct lk_trace_record *rec)
{
	rec->type = 0;
	rec->tid = rec->stack = rec->module_id = 0;
	rec->t = rec->addr = rec->size = rec->rss = rec->live_bytes = rec->live_blocks = 0;
	rec->serial = rec->replaces = 0;
	rec->text = NULL;
	rec->text_len = rec->n_frames = rec->n_symbol = 0;
	rec->frames = NULL;
	rec->module = NULL;
	rec->symbol = NULL;
	rec->totals = NULL;
	rec->scan = NULL;
	rec->cls = 0;
}

#define GET(v) do { if (lk_get_varint(&p, end, &(v))) return bad(r, "bad varint"); } while (0)

/* Next varint of stream i of the EVENTS chunk. */
#define SGET(i, v) do { \
	if (lk_get_varint(&r->sp[i], r->se[i], &(v))) return bad(r, "bad varint"); \
} while (0)

/* An allocation's number, address and size, kept while it is live: a 2.0
 * FREE names the number, a 1.0 FREE the address. */
static int alloc_v2(struct lk_trace_reader *r, const struct lk_trace_record *rec)
{
	if (lk_livemap_put(&r->live, rec->serial, rec->addr, rec->size))
		return r->err = -ENOMEM;
	return 0;
}

static int alloc_v1(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	lk_trace_model_ring_put(&r->m, rec->addr, rec->size);
	struct lk_livemap_entry *e = lk_livemap_get(&r->live, rec->addr);
	if (e) {
		rec->replaces = e->a + 1;     /* its free was not recorded */
		e->a = rec->serial;
		e->b = rec->size;
		return 0;
	}
	if (lk_livemap_put(&r->live, rec->addr, rec->serial, rec->size))
		return r->err = -ENOMEM;
	return 0;
}

/* A 2.0 FREE (ref: distance - 1 back from the allocations so far) or
 * FREE_NEXT (ref: zigzag of the number's delta from the guess). */
static int free_v2(struct lk_trace_reader *r, struct lk_trace_thread *th, unsigned kind,
		   uint64_t ref, struct lk_trace_record *rec)
{
	rec->serial = kind == LK_EVK_FREE ? r->counted.allocs - 1 - ref : r->free_guess + lk_unzigzag(ref);
	if (rec->serial >= r->counted.allocs)
		return bad(r, "free of an allocation not made yet");
	r->free_guess = rec->serial + 1;
	if (lk_livemap_del(&r->live, rec->serial, &rec->addr, &rec->size))
		return bad(r, "free of a block freed before");
	lk_trace_model_freed(&r->m, th, rec->addr, rec->size);
	return 0;
}

/* A 1.0 free of rec->addr: its number and size, if the trace has them. */
static void free_v1(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	if (lk_livemap_del(&r->live, rec->addr, &rec->serial, &rec->size))
		rec->serial = LK_TRACE_NO_SERIAL;
}

static int next_event(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	uint64_t v;
	int rc;
	if (r->sp[LK_EVS_TAG] >= r->se[LK_EVS_TAG])
		return bad(r, "more events than tags");
	unsigned tag = *r->sp[LK_EVS_TAG]++;
	unsigned kind = LK_TAG_KIND(tag), tcode = LK_TAG_THREAD(tag);
	uint64_t dt = LK_TAG_DT(tag);
	if (dt == LK_TAG_DT_VARINT) {
		SGET(LK_EVS_TIME, v);
		dt = v + LK_TAG_DT_VARINT;
		if (dt < v)
			return bad(r, "time overflow");
	}
	uint64_t t = r->t + dt;
	if (t < r->t || t > r->ch.t_last)
		return bad(r, "time past the chunk's last");
	struct lk_trace_thread *th = NULL;
	if (kind > LK_EVK_SNAPSHOT)
		return bad(r, "unknown event kind");
	if (kind == LK_EVK_SAMPLE) {
		if (tcode)
			return bad(r, "sample with a thread");
	} else if (tcode == LK_TAG_THREAD_LITERAL) {
		SGET(LK_EVS_TID, v);
		if (v > UINT32_MAX)
			return bad(r, "thread id out of range");
		th = lk_trace_model_enter(&r->m, (uint32_t)v);
	} else {
		if ((int)tcode >= r->m.n_thr)
			return bad(r, "thread table entry not set");
		th = lk_trace_model_use(&r->m, (int)tcode);
	}
	clear(rec);
	rec->t = t;
	switch (kind) {
	case LK_EVK_ALLOC: {
		uint64_t stack;
		SGET(LK_EVS_STACK, stack);
		SGET(LK_EVS_SIZE, rec->size);
		SGET(LK_EVS_ADDR, v);
		if (stack > r->n_stacks)
			return bad(r, "stack id out of range");
		unsigned c = lk_trace_class(rec->size);
		rec->type = LK_TRACE_ALLOC;
		rec->stack = (uint32_t)stack;
		rec->addr = lk_trace_model_alloc_base(&r->m, th, c) + lk_unzigzag(v);
		rec->serial = r->counted.allocs;
		lk_trace_model_alloc(&r->m, th, c, rec->addr);
		if ((rc = r->meta.version >= 2 ? alloc_v2(r, rec) : alloc_v1(r, rec)))
			return rc;
		r->counted.allocs++;
		r->counted.bytes_allocated += rec->size;
		break;
	}
	case LK_EVK_FREE:
	case LK_EVK_FREE_NEXT:
		if (r->meta.version >= 2) {
			SGET(LK_EVS_REF, v);
			if ((rc = free_v2(r, th, kind, v, rec)))
				return rc;
			rec->type = LK_TRACE_FREE;
			r->counted.frees++;
			break;
		}
		if (kind == LK_EVK_FREE) {
			SGET(LK_EVS_ADDR, v);
			rec->addr = th->last + lk_unzigzag(v);
			lk_trace_model_free(&r->m, th, rec->addr);
			free_v1(r, rec);
			rec->type = LK_TRACE_FREE;
			r->counted.frees++;
			break;
		}
		SGET(LK_EVS_REF, v);      /* FREE_REF */
		if (v >= lk_trace_model_ring_have(&r->m))
			return bad(r, "reference to an allocation not in the ring");
		rec->type = LK_TRACE_FREE;
		rec->addr = lk_trace_model_free_ref(&r->m, th, v + 1);
		free_v1(r, rec);
		r->counted.frees++;
		break;
	case LK_EVK_SAMPLE:
		rec->type = LK_TRACE_SAMPLE;
		SGET(LK_EVS_DATA, rec->rss);
		SGET(LK_EVS_DATA, rec->live_bytes);
		SGET(LK_EVS_DATA, rec->live_blocks);
		break;
	default: { /* MARK, SNAPSHOT */
		SGET(LK_EVS_DATA, v);
		const uint8_t *d = r->sp[LK_EVS_DATA];
		if (v > LK_TRACE_TEXT_MAX || v > (uint64_t)(r->se[LK_EVS_DATA] - d))
			return bad(r, "text too long");
		rec->type = kind == LK_EVK_MARK ? LK_TRACE_MARK : LK_TRACE_SNAPSHOT;
		memcpy(r->text, d, v);
		r->text[v] = 0;
		r->sp[LK_EVS_DATA] = d + v;
		rec->text = r->text;
		rec->text_len = (size_t)v;
		break;
	}
	}
	if (th)
		rec->tid = th->tid;
	r->t = t;
	r->counted.events++;
	return 1;
}

/* The stream directory of a 1.0 EVENTS chunk: S lengths, the streams. */
static int open_streams_v1(struct lk_trace_reader *r)
{
	const uint8_t *p = r->p, *end = r->end;
	uint64_t n, len[LK_EVS_MAX];
	GET(n);
	if (n < LK_EVS_COUNT || n > LK_EVS_MAX)
		return bad(r, "bad number of streams");
	for (uint64_t i = 0; i < n; i++) {
		GET(len[i]);
		if (len[i] > (uint64_t)(end - p))
			return bad(r, "stream longer than its chunk");
	}
	for (uint64_t i = 0; i < n; i++) {
		if (len[i] > (uint64_t)(end - p))
			return bad(r, "stream longer than its chunk");
		if (i < LK_EVS_COUNT) {
			r->sp[i] = p;
			r->se[i] = p + len[i];
		}
		p += len[i];
	}
	r->p = p;   /* what the streams leave is checked as trailing bytes */
	return 0;
}

/* Stream i of a 2.0 EVENTS chunk, stored at p: as is, or decompressed
 * into *dst. */
static int decode_stream(struct lk_trace_reader *r, int i, const uint8_t *p, uint64_t raw,
			 uint64_t stored, uint8_t **dst)
{
	if (stored == raw && !r->bulk) {
		r->sp[i] = p;
	} else {
		if (stored == raw) {
			memcpy(*dst, p, raw);
		} else {
			size_t n = ZSTD_decompressDCtx(r->dctx, *dst, raw, p, stored);
			if (ZSTD_isError(n) || n != raw)
				return bad(r, "cannot decompress a stream");
		}
		r->sp[i] = *dst;
		*dst += raw;
		if (r->bulk) {   /* the pad, see lk_get_varint_padded() */
			memset(*dst, 0xFF, LK_TRACE_STREAM_PAD);
			*dst += LK_TRACE_STREAM_PAD;
		}
	}
	r->se[i] = r->sp[i] + raw;
	return 0;
}

/* The directory of a 2.0 EVENTS chunk at *pp: the allocations before it,
 * n streams and their decoded and stored lengths, checked; *pp moves to
 * the first stream. */
static int read_directory(struct lk_trace_reader *r, const uint8_t **pp, const uint8_t *end,
			  uint64_t *allocs, uint64_t *n, uint64_t *raw, uint64_t *stored)
{
	const uint8_t *p = *pp;
	uint64_t total = 0;
	GET(*allocs);
	GET(*n);
	if (*n < LK_EVS_COUNT || *n > LK_EVS_MAX)
		return bad(r, "bad number of streams");
	for (uint64_t i = 0; i < *n; i++) {
		GET(raw[i]);
		GET(stored[i]);
		if (stored[i] > raw[i] || raw[i] > LK_CHUNK_RAW_MAX)
			return bad(r, "bad stream lengths");
		if (i < LK_EVS_COUNT && stored[i] < raw[i])
			total += raw[i];
	}
	if (total > LK_CHUNK_RAW_MAX)
		return bad(r, "streams larger than the limit");
	if (raw[LK_EVS_TAG] != r->ch.count)
		return bad(r, "not one tag an event");
	*pp = p;
	return 0;
}

/* The directory of a 2.0 EVENTS chunk, and its streams decoded: all, or
 * all but ADDR in bulk mode. */
static int open_streams_v2(struct lk_trace_reader *r)
{
	const uint8_t *p = r->p, *end = r->end;
	uint64_t allocs, n, raw[LK_EVS_MAX], stored[LK_EVS_MAX], total = 0, copied = 0;
	int rc = read_directory(r, &p, end, &allocs, &n, raw, stored);
	if (rc)
		return rc;
	if (allocs != r->counted.allocs)
		return bad(r, "allocation count differs from the chunks before");
	for (uint64_t i = 0; i < LK_EVS_COUNT; i++) {
		if (stored[i] < raw[i])
			total += raw[i];
		if (r->bulk && i != LK_EVS_ADDR)  /* all copied, padded */
			copied += raw[i] + LK_TRACE_STREAM_PAD;
	}
	if (grow(&r->raw, &r->raw_cap, r->bulk ? copied : total ? total : 1))
		return r->err = -ENOMEM;
	uint8_t *dst = r->raw;
	for (uint64_t i = 0; i < n; i++) {
		if (stored[i] > (uint64_t)(end - p))
			return bad(r, "stream longer than its chunk");
		if (i == LK_EVS_ADDR && r->bulk) {
			r->sp[i] = r->se[i] = NULL;   /* the caller does not read it */
		} else if (i < LK_EVS_COUNT) {
			if ((rc = decode_stream(r, (int)i, p, raw[i], stored[i], &dst)))
				return rc;
		}
		p += stored[i];
	}
	r->p = p;
	return 0;
}

static int open_streams(struct lk_trace_reader *r)
{
	int rc = r->meta.version >= 2 ? open_streams_v2(r) : open_streams_v1(r);
	r->t = r->ch.t_first;
	r->free_guess = r->counted.allocs;
	lk_trace_model_reset(&r->m);
	return rc;
}

/* At the end of an EVENTS chunk: every stream used up, times agree. */
static int close_streams(struct lk_trace_reader *r)
{
	for (int i = 0; i < LK_EVS_COUNT; i++)
		if (r->sp[i] != r->se[i])
			return bad(r, "stream not used up by the events");
	if (r->t != r->ch.t_last)
		return bad(r, "last event time differs from the chunk's");
	return 0;
}

/* Past k varints from p, or NULL when the bytes end first or one is
 * longer than lk_get_varint() takes (more than 10 bytes, or a 10th above
 * 1). Eight bytes at a time: the bytes below 0x80 end the varints. */
static const uint8_t *skip_varints(const uint8_t *p, const uint8_t *end, uint32_t k)
{
	unsigned run = 0;   /* bytes of the varint in progress */
	while (k && end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		uint64_t stop = ~le64toh(w) & 0x8080808080808080ull;
		if (!stop) {
			if ((run += 8) >= 10)
				return NULL;
			p += 8;
			continue;
		}
		/* only the first varint ending here can be long: the others
		 * begin in this word */
		unsigned first = (unsigned)__builtin_ctzll(stop) >> 3;
		if (run + first > 9 || (run + first == 9 && p[first] > 1))
			return NULL;
		/* the ends in this word: one bit a byte, summed by a multiply */
		unsigned c = (unsigned)(((stop >> 7) * 0x0101010101010101ull) >> 56);
		if (c >= k) {
			while (--k)
				stop &= stop - 1;
			return p + ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
		}
		k -= c;
		run = 7 - ((63u - (unsigned)__builtin_clzll(stop)) >> 3);
		p += 8;
	}
	for (uint64_t v; k; k--) {   /* the last bytes, and long runs above */
		p -= run;
		run = 0;
		if (lk_get_varint(&p, end, &v))
			return NULL;
	}
	return p;
}

int lk_trace_stacks_next(struct lk_trace_stacks *st, struct lk_trace_stack_ref *s,
			 const char **what)
{
	uint64_t n, v;
	if (st->taken == st->count)
		return 0;
	if (lk_get_varint(&st->p, st->end, &n))
		return *what = "bad varint", -1;
	if (n < 1 || n > LK_TRACE_FRAMES_MAX)
		return *what = "bad number of frames", -1;
	if (lk_get_varint(&st->p, st->end, &v))
		return *what = "bad varint", -1;
	s->id = st->first + st->taken++;
	s->n = (uint32_t)n;
	s->frame0 = st->prev0 += lk_unzigzag(v);
	s->rest = st->p;
	if (!(st->p = skip_varints(st->p, st->end, (uint32_t)n - 1)))
		return *what = "bad varint", -1;
	return 1;
}

void lk_trace_stack_frames(const struct lk_trace_stack_ref *s, uint64_t *frames)
{
	const uint8_t *p = s->rest;
	frames[0] = s->frame0;
	for (uint32_t i = 1; i < s->n; i++) {
		/* checked when skimmed: byte by byte, not a byte past the last */
		uint64_t v = 0;
		unsigned shift = 0;
		uint8_t b;
		do {
			b = *p++;
			v |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
		} while (b & 0x80);
		frames[i] = frames[i - 1] + lk_unzigzag(v);
	}
}

static int next_stack(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	struct lk_trace_stacks st = {.p = r->p, .end = r->end, .first = r->n_stacks + 1,
				     .count = 1, .prev0 = r->stk_prev0};
	struct lk_trace_stack_ref s;
	const char *what;
	if (lk_trace_stacks_next(&st, &s, &what) < 0)
		return bad(r, what);
	lk_trace_stack_frames(&s, r->frames);
	r->stk_prev0 = s.frame0;
	r->p = st.p;
	clear(rec);
	rec->type = LK_TRACE_STACK;
	rec->stack = ++r->n_stacks;
	rec->frames = r->frames;
	rec->n_frames = s.n;
	return 1;
}

/* A string field: NULL (absent) or a NUL-terminated copy in dst. */
static int get_str(const uint8_t **pp, const uint8_t *end, char *dst, size_t max,
		   const char **out, size_t *len)
{
	uint64_t v;
	if (lk_get_varint(pp, end, &v))
		return -1;
	if (v == 0) {
		*out = NULL;
		if (len)
			*len = 0;
		return 0;
	}
	v--;
	if (v > max || v > (uint64_t)(end - *pp))
		return -1;
	memcpy(dst, *pp, v);
	dst[v] = 0;
	*pp += v;
	*out = dst;
	if (len)
		*len = (size_t)v;
	return 0;
}

/* The body [*body, *bend) of a length-prefixed record. */
static int record_body(struct lk_trace_reader *r, const uint8_t **body, const uint8_t **bend)
{
	const uint8_t *p = r->p, *end = r->end;
	uint64_t n;
	GET(n);
	if (n > (uint64_t)(end - p))
		return bad(r, "record longer than its chunk");
	*body = p;
	*bend = p + n;
	r->p = p + n;     /* fields a newer minor appended are skipped */
	return 0;
}

static int next_module(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	const uint8_t *p = NULL, *end = NULL;
	int rc = record_body(r, &p, &end);
	if (rc)
		return rc;
	struct lk_trace_module *m = &r->mod;
	uint64_t id, n, v;
	memset(m, 0, sizeof(*m));
	GET(id);
	if (id != (uint64_t)r->n_modules + 1)
		return bad(r, "module id out of order");
	GET(m->t);
	GET(m->load_bias);
	if (get_str(&p, end, r->path, LK_TRACE_STRING_MAX, &m->path, NULL))
		return bad(r, "bad module path");
	const char *bid;
	if (get_str(&p, end, (char *)r->build_id, LK_TRACE_BUILD_ID_MAX, &bid, &m->build_id_len))
		return bad(r, "bad build id");
	m->build_id = bid ? r->build_id : NULL;
	GET(n);
	if (n > LK_TRACE_RANGES_MAX)
		return bad(r, "too many ranges");
	for (uint64_t i = 0; i < n; i++) {
		struct lk_trace_range *g = &r->ranges[i];
		GET(g->start);
		GET(v);
		g->end = g->start + v;
		if (g->end < g->start)
			return bad(r, "range past the address space");
		GET(g->file_offset);
		GET(v);
		if (v > UINT32_MAX)
			return bad(r, "bad range protection");
		g->prot = (uint32_t)v;
	}
	m->id = (uint32_t)id;
	m->ranges = r->ranges;
	m->n_ranges = (size_t)n;
	r->n_modules++;
	clear(rec);
	rec->type = LK_TRACE_MODULE;
	rec->t = m->t;
	rec->module = m;
	return 1;
}

static int next_symbol(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	const uint8_t *p = NULL, *end = NULL;
	int rc = record_body(r, &p, &end);
	if (rc)
		return rc;
	uint64_t addr, module, n, v;
	GET(addr);
	GET(module);
	GET(n);
	if (module > r->n_modules)
		return bad(r, "module id out of range");
	if (n < 1 || n > LK_TRACE_INLINE_MAX)
		return bad(r, "bad number of frames");
	for (uint64_t i = 0; i < n; i++) {
		struct lk_frame_text *f = &r->sym[i];
		const char *s;
		GET(v);
		f->inlined = (int)(v & 1);
		GET(v);
		if (v > INT_MAX)
			return bad(r, "line out of range");
		f->line = (int)v;
		GET(f->offset);
		char **dst[3] = {&f->function, &f->file, &f->module};
		for (int k = 0; k < 3; k++) {
			if (get_str(&p, end, r->symstr[3 * i + (uint64_t)k], LK_TRACE_STRING_MAX, &s, NULL))
				return bad(r, "bad symbol string");
			*dst[k] = (char *)s;
		}
	}
	r->counted.symbols++;
	clear(rec);
	rec->type = LK_TRACE_SYMBOL;
	rec->addr = addr;
	rec->module_id = (uint32_t)module;
	rec->symbol = r->sym;
	rec->n_symbol = (size_t)n;
	return 1;
}

/* The first record of a CLASSES chunk: how the blocks were judged. */
static int next_scan(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	const uint8_t *p = NULL, *end = NULL;
	int rc = record_body(r, &p, &end);
	if (rc)
		return rc;
	uint64_t state;
	GET(state);
	if (state > LK_TRACE_NOT_SCANNED)
		return bad(r, "unknown scan state");
	if (get_str(&p, end, r->scan_note, LK_TRACE_STRING_MAX, &r->scan.note, NULL) ||
	    get_str(&p, end, r->heap_note, LK_TRACE_STRING_MAX, &r->scan.heap_note, NULL))
		return bad(r, "bad scan note");
	r->scan.state = (int)state;
	clear(rec);
	rec->type = LK_TRACE_SCAN;
	rec->t = r->ch.t_last;
	rec->scan = &r->scan;
	return 1;
}

/* A block's verdict. */
static int next_class(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	if (r->index == 0)
		return next_scan(r, rec);
	const uint8_t *p = r->p, *end = r->end;
	uint64_t gap, v;
	GET(gap);
	GET(v);
	r->p = p;
	if (r->scan.state != LK_TRACE_SCANNED)
		return bad(r, "a verdict where the scan was not made");
	if (r->counted.allocs <= r->class_next || gap >= r->counted.allocs - r->class_next)
		return bad(r, "verdict on an allocation the trace has not made");
	uint64_t cls = v & 7, leader = v >> 3;
	if (cls >= LK_TRACE_CLASS_COUNT || leader > r->n_stacks ||
	    (leader && cls != LK_TRACE_INDIRECT))
		return bad(r, "bad verdict");
	clear(rec);
	rec->type = LK_TRACE_CLASS;
	rec->t = r->ch.t_last;
	rec->serial = r->class_next + gap;
	rec->cls = (int)cls;
	rec->stack = (uint32_t)leader;
	r->class_next = rec->serial + 1;
	if (r->meta.version >= 2 && !r->bulk) {
		struct lk_livemap_entry *e = lk_livemap_get(&r->live, rec->serial);
		if (e) {
			rec->addr = e->a;
			rec->size = e->b;
		}
	}
	return 1;
}

static int read_end(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	const uint8_t *p = r->p, *end = r->end;
	struct lk_trace_totals *t = &r->totals;
	uint64_t *f[] = {&t->events, &t->allocs, &t->frees, &t->bytes_allocated, &t->stacks,
			 &t->modules, &t->symbols, &t->chunks, &t->t_last};
	if (r->ch.count != 1)
		return bad(r, "end marker count is not 1");
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		GET(*f[i]);
	r->p = end;   /* a newer minor may append totals */
	const struct lk_trace_totals *c = &r->counted;
	if (t->events != c->events || t->allocs != c->allocs || t->frees != c->frees ||
	    t->bytes_allocated != c->bytes_allocated || t->stacks != r->n_stacks ||
	    t->modules != r->n_modules || t->symbols != c->symbols || t->chunks != r->ch.seq)
		return bad(r, "end marker totals disagree with the records");
	clear(rec);
	rec->type = LK_TRACE_END;
	rec->t = t->t_last;
	rec->totals = t;
	r->done = 1;
	return 1;
}

/* Follow mode: after a truncation, try again from the last good chunk. */
static int resume(struct lk_trace_reader *r)
{
	if (r->err != LK_ETRUNC)
		return r->err;
	clearerr(r->f);
	if (fseeko(r->f, (off_t)r->off, SEEK_SET) != 0)
		return r->err;
	r->err = 0;
	return 0;
}

/* Load chunks until one has records left: 0, 1 with the END record in
 * rec, in bulk mode 2 at a 2.0 EVENTS chunk and 3 at a STACKS chunk
 * (whole, to the caller), or an error. */
static int advance(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	int rc;
	while (r->left == 0) {
		if (r->p != r->end)
			return bad(r, "bytes after the last record");
		if ((rc = load_chunk(r)) != 0)
			return rc;
		switch (r->ch.type) {
		case LK_CHUNK_EVENTS:
			if (r->classes_seen)
				return bad(r, "events after the verdicts");
			if ((rc = open_streams(r)) != 0)
				return rc;
			if (r->bulk && r->meta.version >= 2)
				return 2;
			if (r->left == 0 && (rc = close_streams(r)) != 0)
				return rc;
			break;
		case LK_CHUNK_STACKS: {
			uint64_t first;
			const uint8_t *p = r->p, *end = r->end;
			GET(first);
			if (r->left && first != (uint64_t)r->n_stacks + 1)
				return bad(r, "stack ids not consecutive");
			r->p = p;
			r->stk_prev0 = 0;
			if (r->left > (size_t)(end - p) / 2)   /* two bytes a stack at least */
				return bad(r, "more stacks than the chunk holds");
			if (r->bulk && r->left)
				return 3;
			break;
		}
		case LK_CHUNK_END:
			return read_end(r, rec);
		case LK_CHUNK_CLASSES:
			if (r->left == 0)
				return bad(r, "verdicts without their scan record");
			r->classes_seen = 1;
			break;
		}
	}
	return 0;
}

/* One record of the current chunk. */
static int next_record(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	int rc;
	switch (r->ch.type) {
	case LK_CHUNK_EVENTS: rc = next_event(r, rec); break;
	case LK_CHUNK_STACKS: rc = next_stack(r, rec); break;
	case LK_CHUNK_MODULES: rc = next_module(r, rec); break;
	case LK_CHUNK_CLASSES: rc = next_class(r, rec); break;
	default: rc = next_symbol(r, rec); break;
	}
	if (rc < 0)
		return rc;
	r->index++;
	if (--r->left == 0) {
		if (r->p != r->end)
			return bad(r, "bytes after the last record");
		int e = r->ch.type == LK_CHUNK_EVENTS ? close_streams(r) : 0;
		if (e)
			return e;
	}
	return rc;
}

int lk_trace_reader_next(struct lk_trace_reader *r, struct lk_trace_record *rec)
{
	if (r->done)
		return 0;
	if (r->err && resume(r))
		return r->err;
	int rc = advance(r, rec);
	if (rc >= 2)
		return bad(r, "chunk left to a bulk reader");
	return rc ? rc : next_record(r, rec);
}

int lk_trace_reader_next_chunk(struct lk_trace_reader *r, struct lk_trace_record *rec,
			       struct lk_trace_events *ev, struct lk_trace_stacks *st)
{
	if (r->done)
		return 0;
	if (r->err && resume(r))
		return r->err;
	r->bulk = 1;
	int rc = advance(r, rec);
	if (rc == 3) {
		*st = (struct lk_trace_stacks){.p = r->p, .end = r->end, .first = r->n_stacks + 1,
					       .count = r->left};
		return 3;
	}
	if (rc != 2)
		return rc ? rc : next_record(r, rec);
	for (int i = 0; i < LK_EVS_COUNT; i++) {
		ev->s[i] = r->sp[i];
		ev->e[i] = r->se[i];
	}
	ev->count = r->left;
	ev->t_first = r->ch.t_first;
	ev->t_last = r->ch.t_last;
	ev->allocs = r->counted.allocs;
	ev->n_stacks = r->n_stacks;
	ev->offset = r->ch_off;
	ev->seq = r->ch.seq;
	r->left = 0;
	return 2;
}

int lk_trace_reader_events_done(struct lk_trace_reader *r, const struct lk_trace_events_end *e)
{
	r->index = r->ch.count;
	for (int i = 0; i < LK_EVS_COUNT; i++)
		if (i != LK_EVS_ADDR && e->s[i] != r->se[i])
			return bad(r, "stream not used up by the events");
	if (e->t != r->ch.t_last)
		return bad(r, "last event time differs from the chunk's");
	r->counted.events += r->ch.count;
	r->counted.allocs += e->allocs;
	r->counted.frees += e->frees;
	r->counted.bytes_allocated += e->bytes_allocated;
	return 0;
}

/* ---- allocation times, read again ------------------------------------ */

/* The times of allocations numbers[0 .. n) (ascending, from `number` on)
 * by the tags of a chunk and its TIME stream, starting at time t. */
static int walk_times(struct lk_trace_reader *r, const uint8_t *tag, const uint8_t *tag_end,
		      const uint8_t *tp, const uint8_t *tp_end, uint64_t t, uint64_t number,
		      const uint64_t *numbers, size_t n, uint64_t *times)
{
	size_t k = 0;
	for (; tag < tag_end && k < n; tag++) {
		uint64_t dt = LK_TAG_DT(*tag), v;
		if (dt == LK_TAG_DT_VARINT) {
			if (lk_get_varint(&tp, tp_end, &v) || v > UINT64_MAX - LK_TAG_DT_VARINT)
				return bad(r, "bad varint");
			dt += v;
		}
		t += dt;
		if (LK_TAG_KIND(*tag) != LK_EVK_ALLOC)
			continue;
		for (; k < n && numbers[k] == number; k++)
			times[k] = t;
		number++;
	}
	return k == n ? 0 : bad(r, "allocation not in its chunk");
}

/* Stream i of a chunk's payload at p (decoded length raw, stored length
 * stored) readable at [*s, *e): as it lies, or decoded to dst. */
static int stream_again(struct lk_trace_reader *r, const uint8_t *p, uint64_t raw, uint64_t stored,
			uint8_t *dst, const uint8_t **s, const uint8_t **e)
{
	*s = p;
	if (stored < raw) {
		size_t got = ZSTD_decompressDCtx(r->dctx, dst, raw, p, stored);
		if (ZSTD_isError(got) || got != raw)
			return bad(r, "cannot decompress a stream");
		*s = dst;
	}
	*e = *s + raw;
	return 0;
}

/* The chunk at `offset`, read and checked again into r->stored. */
static int chunk_again(struct lk_trace_reader *r, uint64_t offset, uint32_t seq)
{
	uint8_t hb[LK_CHUNK_HEADER_SIZE];
	struct lk_chunk_header h;
	int verify = !(r->flags & LK_TRACE_NOVERIFY);
	if (fseeko(r->f, (off_t)offset, SEEK_SET) || fread(hb, 1, sizeof(hb), r->f) != sizeof(hb))
		return io_error(r);
	if (lk_trace_chunk_header_get(hb, &h, verify) || h.seq != seq ||
	    h.type != LK_CHUNK_EVENTS || h.codec != LK_CODEC_STORED ||
	    h.stored_size > LK_CHUNK_STORED_MAX)
		return corrupt_at(r, LK_EFORMAT, offset, "chunk changed since it was read");
	if (grow(&r->stored, &r->stored_cap, h.stored_size ? h.stored_size : 1))
		return r->err = -ENOMEM;
	if (fread(r->stored, 1, h.stored_size, r->f) != h.stored_size)
		return io_error(r);
	if (verify && lk_trace_crc32(0, r->stored, h.stored_size) != h.crc)
		return corrupt_at(r, LK_EFORMAT, offset, "chunk checksum mismatch");
	r->ch = h;
	r->ch_off = offset;
	return 0;
}

int lk_trace_reader_alloc_times(struct lk_trace_reader *r, uint64_t offset, uint32_t seq,
				uint64_t first, const uint64_t *numbers, size_t n, uint64_t *times)
{
	struct lk_chunk_header ch = r->ch;
	uint64_t ch_off = r->ch_off, allocs, count, raw[LK_EVS_MAX], stored[LK_EVS_MAX];
	const uint8_t *p, *s[LK_EVS_MAX], *e[LK_EVS_MAX];
	if ((r->left && !r->done) || r->meta.version < 2)
		return bad(r, "times asked while reading");
	r->index = 0;
	int rc = chunk_again(r, offset, seq);
	if (rc == 0) {
		p = r->stored;
		rc = read_directory(r, &p, r->stored + r->ch.stored_size, &allocs, &count, raw,
				    stored);
	}
	if (rc == 0 && allocs != first)
		rc = bad(r, "allocation count differs from the chunks before");
	uint64_t need = 0;   /* TAG and TIME decoded */
	for (uint64_t i = 0; rc == 0 && i <= LK_EVS_TIME; i++)
		need += stored[i] < raw[i] ? raw[i] : 0;
	if (rc == 0 && grow(&r->raw, &r->raw_cap, need ? need : 1))
		rc = r->err = -ENOMEM;
	uint8_t *dst = r->raw;
	for (uint64_t i = 0; rc == 0 && i <= LK_EVS_TIME; i++) {   /* TAG, TIME */
		if (stored[i] > (uint64_t)(r->stored + r->ch.stored_size - p))
			rc = bad(r, "stream longer than its chunk");
		else
			rc = stream_again(r, p, raw[i], stored[i], dst, &s[i], &e[i]);
		if (stored[i] < raw[i])
			dst += raw[i];
		p += stored[i];
	}
	if (rc == 0)
		rc = walk_times(r, s[LK_EVS_TAG], e[LK_EVS_TAG], s[LK_EVS_TIME], e[LK_EVS_TIME],
				r->ch.t_first, first, numbers, n, times);
	r->ch = ch;
	r->ch_off = ch_off;
	if (rc == 0 && fseeko(r->f, (off_t)r->off, SEEK_SET))
		rc = io_error(r);
	return rc;
}

uint8_t *lk_trace_reader_take_chunk(struct lk_trace_reader *r)
{
	uint8_t *b;
	if (r->ch.codec == LK_CODEC_STORED) {
		b = r->stored;
		r->stored = NULL;
		r->stored_cap = 0;
	} else {
		b = r->raw;
		r->raw = NULL;
		r->raw_cap = 0;
	}
	return b;
}

int lk_trace_reader_stacks_done(struct lk_trace_reader *r, const struct lk_trace_stacks *st)
{
	r->index = st->taken;
	if (st->taken != r->left || st->p != st->end)
		return bad(r, "bytes after the last record");
	r->n_stacks += st->taken;
	r->p = r->end;
	r->left = 0;
	return 0;
}

int lk_trace_reader_bad(struct lk_trace_reader *r, uint32_t index, const char *what)
{
	r->index = index;
	return bad(r, what);
}
