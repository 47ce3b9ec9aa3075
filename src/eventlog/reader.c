/*
 * reader.c - streaming GHC eventlog reader (see reader.h).
 *
 * Reads a regular file in place through mapped windows (common/filemap.h:
 * no copy from the page cache; docs/performance.md), anything else (a
 * pipe) into one buffer of READ_BUF bytes that slides over it.
 * Either way an event, at most 12 + 65535 bytes, always fits in what is at
 * hand.
 *
 * The hot loop is skip_fast(): events of a fixed-size type the caller did
 * not ask for (lk_eventlog_want_only) are stepped over inside the bytes at
 * hand by one table look-up each (skip[type] = whole event size, 0 = needs
 * the careful path), without a call, a copy or a return per event. Where
 * the types repeat, no step waits for the look-up of the one before: a
 * run of one type, a cycle of 2-16 types (a concurrent program's
 * scheduler; a capability's part of each collection), or the same stretch
 * as between the two events asked for before (a collection's dozen events
 * between two heap sizes) is checked four or more types at a time and
 * stepped over whole (docs/performance.md, "The fast paths").
 *
 * Never trusts the input: every length is checked against what the file
 * really holds before it is used. Never prints; failures carry their detail
 * through lk_error_set().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/filemap.h"
#include "common/hugeheap.h"
#include "eventlog/bigendian.h"
#include "eventlog/reader.h"

#define READ_BUF (256u * 1024u)
#define NAME_MAX_KEPT 255u

#define TAG_HDRB 0x68647262u
#define TAG_HETB 0x68657462u
#define TAG_ETB  0x65746200u
#define TAG_ETE  0x65746500u
#define TAG_HETE 0x68657465u
#define TAG_HDRE 0x68647265u
#define TAG_DATB 0x64617462u

/* How far ahead of the event at hand the file's bytes are asked for, by
 * both paths: the hardware prefetcher stops at each 4 KiB page, and the
 * reads are far apart in time (docs/performance.md: 100 MB 12.7 -> 11.2 ms
 * with 200 bands, 29.6 -> 28.3 ms with 5,000; 512 bytes or 1 KiB ahead:
 * less gain, 2-8 KiB: the same). */
#define PREFETCH_AHEAD 2048u

/* A prefetch, harmless past the window (computed as an integer: no
 * pointer past its object). */
static inline void prefetch_ahead(const uint8_t *p)
{
	__builtin_prefetch((const void *)((uintptr_t)p + PREFETCH_AHEAD));
}

struct type_name {
	uint16_t id;
	char *name;
};

/* The events skip_fast() stepped over between two others one at a time:
 * a program that collects its garbage often writes the same dozen events
 * between two heap sizes at every collection. */
enum { STRETCH_MAX = 16 };
struct stretch {
	uint16_t type[STRETCH_MAX];  /* as they lie in the file */
	uint32_t off[STRETCH_MAX];   /* from the first */
	unsigned n;                  /* 0: none */
	size_t len;                  /* bytes of all n */
};

struct lk_eventlog {
	FILE *f;
	struct lk_filemap *map;  /* NULL: read into buf */
	const uint8_t *buf;
	size_t pos, len;      /* unread bytes are buf[pos..len) */
	uint64_t base;        /* file offset of buf[0] */
	int eof;
	int err;              /* sticky error of lk_eventlog_next() */
	int ended;
	uint16_t cap;
	uint64_t block_end;   /* file offset where the current block ends; 0: none */
	uint64_t last_time;
	uint64_t count;
	int have_event;
	uint16_t size[65536];
	uint8_t declared[65536 / 8];
	uint8_t unwanted[65536 / 8];  /* lk_eventlog_want_only(): not returned */
	uint32_t skip[65536];         /* 10 + size: fast-skippable; 0: not */
	struct stretch stretch;       /* what skip_fast() stepped over last time */
	uint32_t serial;              /* events skip_fast() stepped over one by one */
	uint32_t seen_at[65536];      /* by type: the serial of its last one */
	struct type_name *names;
	size_t n_names, cap_names;
};

static uint64_t offset_of(const struct lk_eventlog *r) { return r->base + r->pos; }

/* refill() of a mapped file: the window from the first unread byte. */
static int remap(struct lk_eventlog *r, size_t n)
{
	uint64_t at = r->base + r->pos;
	int rc = lk_filemap_move(r->map, at, &r->buf, &r->base, &r->len, &r->eof);
	if (rc)
		return rc;
	uint64_t size;
	if (lk_filemap_shrunk(r->map, &size) || at > r->base + r->len)
		return LK_ETRUNC;
	r->pos = (size_t)(at - r->base);
	return r->len - r->pos >= n ? 0 : 1;
}

/* fill() when the bytes at hand are too few. */
static int refill(struct lk_eventlog *r, size_t n)
{
	if (r->map)
		return remap(r, n);
	uint8_t *buf = (uint8_t *)r->buf;  /* ours in this mode */
	if (r->pos > 0) {
		memmove(buf, buf + r->pos, r->len - r->pos);
		r->base += r->pos;
		r->len -= r->pos;
		r->pos = 0;
	}
	while (r->len < n && !r->eof) {
		size_t got = fread(buf + r->len, 1, READ_BUF - r->len, r->f);
		r->len += got;
		if (got == 0) {
			if (ferror(r->f))
				return -EIO;
			r->eof = 1;
		}
	}
	return r->len >= n ? 0 : 1;
}

/* Make n bytes available at buf[pos]. 0: yes; 1: the file ends before. */
static inline int fill(struct lk_eventlog *r, size_t n)
{
	return r->len - r->pos >= n ? 0 : refill(r, n);
}

static int skip(struct lk_eventlog *r, uint64_t n)
{
	while (n > 0) {
		if (r->pos == r->len) {
			int rc = fill(r, 1);
			if (rc)
				return rc;
		}
		size_t step = r->len - r->pos;
		if (step > n)
			step = (size_t)n;
		r->pos += step;
		n -= step;
	}
	return 0;
}

static int header_trunc(struct lk_eventlog *r, int rc)
{
	if (rc < 0)
		return lk_error_set(rc, "read error at offset %llu",
				    (unsigned long long)offset_of(r));
	return lk_error_set(LK_ETRUNC, "truncated inside the header at offset %llu",
			    (unsigned long long)r->base + r->len);
}

static int read_u32(struct lk_eventlog *r, uint32_t *v)
{
	int rc = fill(r, 4);
	if (rc)
		return header_trunc(r, rc);
	*v = be32(r->buf + r->pos);
	r->pos += 4;
	return 0;
}

static int expect_tag(struct lk_eventlog *r, uint32_t tag, const char *what)
{
	uint64_t at = offset_of(r);
	uint32_t v = 0;
	int rc = read_u32(r, &v);
	if (rc)
		return rc;
	if (v != tag)
		return lk_error_set(LK_EFORMAT, "bad header: expected %s at offset %llu",
				    what, (unsigned long long)at);
	return 0;
}

static int set_name(struct lk_eventlog *r, uint16_t id, const uint8_t *s, size_t n)
{
	char *name = malloc(n + 1);
	if (!name)
		return -ENOMEM;
	memcpy(name, s, n);
	name[n] = 0;
	for (size_t i = 0; i < r->n_names; i++)
		if (r->names[i].id == id) {
			free(r->names[i].name);
			r->names[i].name = name;
			return 0;
		}
	if (r->n_names == r->cap_names) {
		size_t cap = r->cap_names ? r->cap_names * 2 : 64;
		struct type_name *nn = realloc(r->names, cap * sizeof(*nn));
		if (!nn) {
			free(name);
			return -ENOMEM;
		}
		r->names = nn;
		r->cap_names = cap;
	}
	r->names[r->n_names].id = id;
	r->names[r->n_names].name = name;
	r->n_names++;
	return 0;
}

/* One declaration between 'etb\0' and 'ete\0'. */
static int read_decl(struct lk_eventlog *r)
{
	int rc = fill(r, 8);
	if (rc)
		return header_trunc(r, rc);
	const uint8_t *p = r->buf + r->pos;
	uint16_t id = be16(p), size = be16(p + 2);
	uint32_t desc_len = be32(p + 4);
	r->pos += 8;
	size_t keep = desc_len < NAME_MAX_KEPT ? desc_len : NAME_MAX_KEPT;
	rc = fill(r, keep);
	if (rc)
		return header_trunc(r, rc);
	rc = set_name(r, id, r->buf + r->pos, keep);
	if (rc)
		return rc;
	rc = skip(r, desc_len);
	if (rc)
		return header_trunc(r, rc);
	uint32_t ext_len = 0;
	rc = read_u32(r, &ext_len);
	if (rc)
		return rc;
	rc = skip(r, ext_len);
	if (rc)
		return header_trunc(r, rc);
	r->size[id] = size;
	r->declared[id / 8] |= (uint8_t)(1u << (id % 8));
	return expect_tag(r, TAG_ETE, "'ete'");
}

static int read_header(struct lk_eventlog *r)
{
	int rc = fill(r, 4);
	if (rc < 0)
		return header_trunc(r, rc);
	if (r->len == 0)
		return lk_error_set(LK_EFORMAT, "not a GHC eventlog (empty file)");
	if (rc || be32(r->buf) != TAG_HDRB)
		return lk_error_set(LK_EFORMAT, "not a GHC eventlog (no 'hdrb' magic at offset 0)");
	r->pos = 4;
	if ((rc = expect_tag(r, TAG_HETB, "'hetb'")))
		return rc;
	for (;;) {
		uint64_t at = offset_of(r);
		uint32_t tag = 0;
		if ((rc = read_u32(r, &tag)))
			return rc;
		if (tag == TAG_HETE)
			break;
		if (tag != TAG_ETB)
			return lk_error_set(LK_EFORMAT,
					    "bad header: expected 'etb' or 'hete' at offset %llu",
					    (unsigned long long)at);
		if ((rc = read_decl(r)))
			return rc;
	}
	if ((rc = expect_tag(r, TAG_HDRE, "'hdre'")))
		return rc;
	return expect_tag(r, TAG_DATB, "'datb'");
}

int lk_eventlog_open(FILE *f, struct lk_eventlog **out)
{
	struct lk_eventlog *r = lk_sparse_alloc(sizeof(*r));  /* the tables: sparse */
	if (!r)
		return -ENOMEM;
	r->f = f;
	r->cap = LK_EVENTLOG_NOCAP;
	int rc = 0;
	/* mapped if the file can be (not a pipe, not a file system without
	 * mmap), else read */
	if (ftello(f) == 0 && lk_filemap_open(fileno(f), &r->map) == 0 && remap(r, 0) < 0) {
		lk_filemap_close(r->map);
		r->map = NULL;
		r->buf = NULL;
		r->pos = r->len = r->base = 0;
		r->eof = 0;
	}
	if (!r->map && !(r->buf = malloc(READ_BUF)))
		rc = -ENOMEM;
	if (!rc)
		rc = read_header(r);
	if (rc) {
		lk_eventlog_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

void lk_eventlog_close(struct lk_eventlog *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_names; i++)
		free(r->names[i].name);
	free(r->names);
	if (r->map)
		lk_filemap_close(r->map);
	else
		free((void *)r->buf);
	lk_sparse_free(r, sizeof(*r));
}

static int is_set(const uint8_t *bits, uint16_t id) { return bits[id / 8] >> (id % 8) & 1; }

/* Fixed-size, declared, unwanted types can be stepped over blindly; the end
 * marker (0xFFFF), block markers (they set the capability) and IPE (whose
 * declared size is not to be trusted) never are. */
static void update_skip(struct lk_eventlog *r, uint16_t id)
{
	int blind = is_set(r->declared, id) && is_set(r->unwanted, id) &&
		    r->size[id] != LK_EVENTLOG_VARSIZE && id != 0xFFFF &&
		    id != LK_EV_BLOCK_MARKER && id != LK_EV_IPE;
	r->skip[id] = blind ? 10u + r->size[id] : 0;
}

void lk_eventlog_want_only(struct lk_eventlog *r, const uint16_t *types, size_t n)
{
	memset(r->unwanted, 0xFF, sizeof(r->unwanted));
	r->stretch.n = 0;   /* its types may be wanted now */
	for (size_t i = 0; i < n; i++)
		r->unwanted[types[i] / 8] &= (uint8_t)~(1u << (types[i] % 8));
	/* undeclared types keep skip 0, untouched: the table's pages are only
	 * faulted in where the header declared something */
	for (uint32_t byte = 0; byte < sizeof(r->declared); byte++)
		for (unsigned bits = r->declared[byte]; bits; bits &= bits - 1)
			update_skip(r, (uint16_t)(byte * 8 + (unsigned)__builtin_ctz(bits)));
}

static int data_error(struct lk_eventlog *r, int code, uint64_t at, const char *what)
{
	char last[64];
	uint64_t size;
	if (r->map && lk_filemap_shrunk(r->map, &size)) {
		code = LK_ETRUNC;
		at = size;
		what = "the file shrank while being read";
	}
	if (r->have_event)
		snprintf(last, sizeof(last), "last complete event at %.3f s",
			 (double)r->last_time / 1e9);
	else
		snprintf(last, sizeof(last), "no complete event before");
	if (code == LK_ETRUNC && what)
		lk_error_set(code, "truncated at offset %llu, %s (%s)", (unsigned long long)at,
			     what, last);
	else if (code == LK_ETRUNC)
		lk_error_set(code, "truncated at offset %llu (%s)", (unsigned long long)at, last);
	else if (code > LK_EFORMAT)  /* -errno */
		lk_error_set(code, "read error at offset %llu (%s)", (unsigned long long)at, last);
	else
		lk_error_set(code, "corrupt at offset %llu: %s (%s)", (unsigned long long)at,
			     what, last);
	r->err = code;
	return code;
}

/* Length of an IPE payload: u64 and six NUL-terminated strings, within the
 * avail bytes; 0 if they are not all there. */
static size_t ipe_length(const uint8_t *p, size_t avail)
{
	if (avail < 8)
		return 0;
	int nuls = 0;
	for (size_t i = 8; i < avail; i++)
		if (p[i] == 0 && ++nuls == 6)
			return i + 1;
	return 0;
}

/* The last events skip_fast() stepped over one at a time (not in a run of
 * one type), for cycles of types: a concurrent program's scheduler writes
 * "run thread, wake up thread, stop thread" again and again; a capability
 * that helps another collect writes the seven events of its part each
 * time. */
enum { CYCLE_MAX = STRETCH_MAX, RECENT = 2 * CYCLE_MAX };
struct recent {
	uint16_t type[RECENT];  /* as they lie in the file */
	size_t at[RECENT];      /* positions in buf */
	unsigned n;             /* pushed since the last run; entry i at [i % RECENT] */
};

/* The period P (2 to CYCLE_MAX) of the recent events, if the last 2P of
 * them repeat the last P; 0 if none. The candidate is the distance to the
 * type's last place (r->seen_at, by event serial). */
static inline unsigned recent_period(struct lk_eventlog *r, const struct recent *h, uint16_t id)
{
	uint32_t serial = ++r->serial, p = serial - r->seen_at[id];
	r->seen_at[id] = serial;
	if (p < 2 || p > CYCLE_MAX || h->n < 2 * p)
		return 0;
	unsigned i = h->n - 1;
	for (unsigned k = 0; k < p; k++)
		if (h->type[(i - k) % RECENT] != h->type[(i - k - p) % RECENT])
			return 0;
	return p;
}

/* Step over whole cycles of the last p recent events from pos (just past
 * the last of them) while the types at their places match, four events'
 * types checked at once: no event's position waits for the type before
 * it. Returns the new position; *count and *last as skip_fast's. */
static inline size_t skip_cycles(const uint8_t *b, size_t pos, size_t end, const struct recent *h,
				 unsigned p, uint64_t *count, size_t *last)
{
	size_t first = h->at[(h->n - p) % RECENT], period = pos - first;
	size_t off[4], need = 0;
	uint16_t want[4];
	unsigned cycles = 4 / p;  /* whole cycles a step covers */
	for (unsigned k = 0; k < 4; k++) {
		unsigned m = (h->n - p + k % p) % RECENT;
		size_t next = k % p + 1 < p ? h->at[(m + 1) % RECENT] : pos;
		off[k] = k / p * period + (h->at[m] - first);
		want[k] = h->type[m];
		if (off[k] + (next - h->at[m]) > need)
			need = off[k] + (next - h->at[m]);
	}
	size_t step = cycles * period, last_size = pos - h->at[(h->n - 1) % RECENT];
	size_t from = pos;
	uint16_t t0, t1, t2, t3;
	while (end - pos >= need) {
		prefetch_ahead(b + pos);
		memcpy(&t0, b + pos + off[0], 2);
		memcpy(&t1, b + pos + off[1], 2);
		memcpy(&t2, b + pos + off[2], 2);
		memcpy(&t3, b + pos + off[3], 2);
		if (((t0 ^ want[0]) | (t1 ^ want[1]) | (t2 ^ want[2]) | (t3 ^ want[3])) != 0)
			break;
		pos += step;
		*count += cycles * p;
	}
	if (pos != from)
		*last = pos - last_size;
	return pos;
}

/* Whether the events at p are those of st, type by type: the loads do not
 * wait for each other. */
static inline int same_stretch(const uint8_t *p, const struct stretch *st)
{
	unsigned diff = 0;
	for (unsigned k = 0; k < st->n; k++) {
		uint16_t t;
		memcpy(&t, p + st->off[k], 2);
		diff |= (unsigned)(t ^ st->type[k]);
	}
	return diff == 0;
}

/* skip_cycles() for cycles of 5 to CYCLE_MAX events: one cycle's types
 * checked at once (same_stretch) at a time. */
static inline size_t skip_long_cycles(const uint8_t *b, size_t pos, size_t end,
				      const struct recent *h, unsigned p, uint64_t *count,
				      size_t *last)
{
	struct stretch cycle;
	size_t first = h->at[(h->n - p) % RECENT];
	for (unsigned k = 0; k < p; k++) {
		unsigned m = (h->n - p + k) % RECENT;
		cycle.type[k] = h->type[m];
		cycle.off[k] = (uint32_t)(h->at[m] - first);
	}
	cycle.n = p;
	cycle.len = pos - first;
	size_t from = pos;
	while (end - pos >= cycle.len && same_stretch(b + pos, &cycle)) {
		prefetch_ahead(b + pos);
		pos += cycle.len;
		*count += p;
	}
	if (pos != from)
		*last = pos - (cycle.len - cycle.off[p - 1]);
	return pos;
}

/* Step over the blindly skippable events (update_skip) that lie wholly in
 * buf[pos..len); stops at the first other event, or at the end of what is
 * at hand. A stretch like the one stepped over last time is stepped over
 * at once. */
static void skip_fast(struct lk_eventlog *r)
{
	const uint8_t *b = r->buf;
	size_t pos = r->pos, end = r->len, last = SIZE_MAX;
	uint64_t count = 0;
	struct recent h;
	struct stretch *st = &r->stretch, seen;
	int again = 0;
	h.n = 0;
	seen.n = 0;
	if (st->n) {
		prefetch_ahead(b + pos);
		if (end - pos >= st->len && same_stretch(b + pos, st)) {
			pos += st->len;
			count += st->n;
			last = pos - (st->len - st->off[st->n - 1]);
			again = 1;
			seen.n = STRETCH_MAX + 1;
		}
	}
	while (end - pos >= 2) {
		uint16_t raw;  /* the type as it lies in the file, big-endian */
		memcpy(&raw, b + pos, 2);
		uint32_t n = r->skip[be16(b + pos)];
		if (n == 0 || end - pos < n)
			break;
		size_t at = pos;
		/* A run of one type: the next position no longer waits for a
		 * table load, so the loads of a run overlap. */
		uint16_t next, t1, t2, t3, t4;
		while (end - pos >= 5 * (size_t)n) {  /* four at a time, one branch */
			prefetch_ahead(b + pos);
			memcpy(&t1, b + pos + n, 2);
			memcpy(&t2, b + pos + 2 * n, 2);
			memcpy(&t3, b + pos + 3 * n, 2);
			memcpy(&t4, b + pos + 4 * n, 2);
			if (((t1 ^ raw) | (t2 ^ raw) | (t3 ^ raw) | (t4 ^ raw)) != 0)
				break;
			pos += 4 * (size_t)n;
			count += 4;
		}
		do {
			pos += n;
			count++;
		} while (end - pos >= n && (memcpy(&next, b + pos, 2), next == raw));
		last = pos - n;
		if (last != at) {  /* a run: cycles start again after it */
			h.n = 0;
			seen.n = STRETCH_MAX + 1;
			continue;
		}
		if (seen.n < STRETCH_MAX) {
			seen.type[seen.n] = raw;
			seen.off[seen.n] = (uint32_t)(at - r->pos);
			seen.n++;
		} else {
			seen.n = STRETCH_MAX + 1;  /* too long */
		}
		h.type[h.n % RECENT] = raw;
		h.at[h.n % RECENT] = at;
		h.n++;
		unsigned p = recent_period(r, &h, be16(b + at));
		if (seen.n <= STRETCH_MAX)  /* cycles once too long for a template */
			p = 0;
		if (p > 4)
			pos = skip_long_cycles(b, pos, end, &h, p, &count, &last);
		else if (p)
			pos = skip_cycles(b, pos, end, &h, p, &count, &last);
		if (p)
			h.n = 0;
	}
	/* The template for next time: what was stepped over one by one; none
	 * after runs, cycles or a long stretch (not checked in vain then); the
	 * same after no event (a heap size, then a heap live) */
	if (!again && seen.n > STRETCH_MAX) {
		st->n = 0;
	} else if (!again && seen.n > 0) {
		seen.len = pos - r->pos;
		*st = seen;
	}
	if (last != SIZE_MAX) {
		r->last_time = be64(b + last + 2);
		r->have_event = 1;
		r->count += count;
		r->pos = pos;
	}
}

/* The event at pos, at file offset at, of hdr + len bytes there, into *ev
 * (all but its type and capability); the reader steps past it. */
static inline void take_event(struct lk_eventlog *r, struct lk_eventlog_event *ev, uint64_t at,
			      size_t hdr, size_t len)
{
	const uint8_t *p = r->buf + r->pos;
	ev->time = be64(p + 2);
	ev->offset = at;
	ev->payload = p + hdr;
	ev->len = len;
	r->pos += hdr + len;
	r->last_time = ev->time;
	r->have_event = 1;
	r->count++;
}

/* A block marker and the first bytes after it: its declared size, a
 * block at least as long as the marker, an end time not before its start,
 * and a declared event type (or the end marker) after it. */
#define BLOCK_MARKER_LEN 24u
static int looks_like_block(const struct lk_eventlog *r, const uint8_t *p)
{
	if (be16(p) != LK_EV_BLOCK_MARKER || r->size[LK_EV_BLOCK_MARKER] != 14)
		return 0;
	uint16_t next = be16(p + BLOCK_MARKER_LEN);
	return be32(p + 10) >= BLOCK_MARKER_LEN && be64(p + 14) >= be64(p + 2) &&
	       (next == 0xFFFF || is_set(r->declared, next));
}

/* Move to the first place at or after offset to where a block begins.
 * 0 there; 1 if none does before the end of the file; a negative code. */
static int scan_to_block(struct lk_eventlog *r, uint64_t to)
{
	int rc = skip(r, to - offset_of(r));
	while (rc == 0 && (rc = fill(r, BLOCK_MARKER_LEN + 2)) == 0 &&
	       !looks_like_block(r, r->buf + r->pos))
		r->pos++;
	return rc;
}

/* Damage at offset at (what: its kind): the reader skips to the next event
 * block, the first at or after the end of the damaged one (its marker gave
 * its length; outside any block, the first after at). 2 (LK_EVENTLOG_SKIPPED)
 * with *ev telling the bytes skipped; without a block after, the sticky
 * LK_EFORMAT. */
static int damaged(struct lk_eventlog *r, struct lk_eventlog_event *ev, uint64_t at,
		   const char *what)
{
	uint64_t to = r->block_end > at ? r->block_end : at + 1;
	uint16_t cap = r->cap;
	int rc = scan_to_block(r, to);
	if (rc != 0)
		return data_error(r, rc < 0 ? rc : LK_EFORMAT, at, what);
	uint64_t end = offset_of(r);
	lk_error_set(LK_EFORMAT, "bytes %llu-%llu skipped: %s at offset %llu; read on from "
		     "the next event block", (unsigned long long)at, (unsigned long long)end - 1,
		     what, (unsigned long long)at);
	*ev = (struct lk_eventlog_event){.cap = cap, .offset = at, .len = (size_t)(end - at)};
	r->cap = LK_EVENTLOG_NOCAP;
	r->block_end = 0;
	return LK_EVENTLOG_SKIPPED;
}

/* The careful path for the event at pos: 1 with *ev filled, 0 at the end of
 * data, 2 after damaged bytes were skipped, or a negative code. */
static int read_event(struct lk_eventlog *r, struct lk_eventlog_event *ev)
{
	uint64_t at = offset_of(r);
	prefetch_ahead(r->buf + r->pos);
	if (r->block_end && at >= r->block_end) {
		r->block_end = 0;
		r->cap = LK_EVENTLOG_NOCAP;
	}
	int rc = fill(r, 2);
	if (rc < 0)
		return data_error(r, rc, at, NULL);
	if (rc)
		return r->len == r->pos ? 0 : data_error(r, LK_ETRUNC, at, NULL);
	uint16_t type = be16(r->buf + r->pos);
	if (type == 0xFFFF) {
		r->pos += 2;
		r->ended = 1;
		return 0;
	}
	if (!is_set(r->declared, type)) {
		char what[64];
		snprintf(what, sizeof(what), "undeclared event type %u", type);
		return damaged(r, ev, at, what);
	}
	int var = r->size[type] == LK_EVENTLOG_VARSIZE;
	size_t hdr = var ? 12 : 10;
	rc = fill(r, hdr);
	if (rc)
		return data_error(r, rc < 0 ? rc : LK_ETRUNC, at, NULL);
	size_t len = var ? be16(r->buf + r->pos + 10) : r->size[type];
	if (r->block_end && at + hdr + len > r->block_end && type != LK_EV_IPE)
		return damaged(r, ev, at, "an event past the end of its block");
	rc = fill(r, hdr + len);
	if (rc < 0)
		return data_error(r, rc, at, NULL);
	const uint8_t *p = r->buf + r->pos;
	if (type == LK_EV_IPE) {
		/* By fields: GHC 9.6 declares one byte more than it writes,
		 * so the last IPE of a file may "run past" its end. */
		size_t avail = r->len - r->pos - hdr;
		size_t n = ipe_length(p + hdr, avail < len ? avail : len);
		if (n == 0 && !rc)
			return damaged(r, ev, at, "an IPE event without its six strings");
		if (n == 0)
			return data_error(r, LK_ETRUNC, at, "IPE event without its six strings");
		len = n;
	} else if (rc) {
		return data_error(r, LK_ETRUNC, at, NULL);
	}
	take_event(r, ev, at, hdr, len);
	ev->type = type;
	if (type == LK_EV_BLOCK_MARKER && len >= 14) {
		uint32_t bsize = be32(ev->payload);
		r->cap = be16(ev->payload + 12);
		r->block_end = bsize ? at + bsize : 0;
	}
	ev->cap = r->cap;
	return 1;
}

int lk_eventlog_next(struct lk_eventlog *r, struct lk_eventlog_event *ev)
{
	if (r->err)
		return r->err;
	for (;;) {
		int rc = 0;
		if (!r->ended) {
			skip_fast(r);
			rc = read_event(r, ev);
			if (rc == 1 && is_set(r->unwanted, ev->type))
				continue;
		}
		uint64_t size;
		if (rc == 0 && r->map && lk_filemap_shrunk(r->map, &size))
			return data_error(r, LK_ETRUNC, size, NULL);
		return rc;
	}
}

int lk_eventlog_next_same(struct lk_eventlog *r, struct lk_eventlog_event *ev)
{
	const uint8_t *p = r->buf + r->pos;
	size_t avail = r->len - r->pos;
	uint16_t type = ev->type;
	/* IPEs are read by fields; a block marker changes the capability */
	if (avail < 12 || be16(p) != type || type == LK_EV_IPE || type == LK_EV_BLOCK_MARKER)
		return 0;
	uint64_t at = offset_of(r);
	if (r->block_end && at >= r->block_end)   /* next() leaves the block */
		return 0;
	int var = r->size[type] == LK_EVENTLOG_VARSIZE;
	size_t hdr = var ? 12 : 10, len = var ? be16(p + 10) : r->size[type];
	if (avail - hdr < len)
		return 0;
	prefetch_ahead(p);
	take_event(r, ev, at, hdr, len);
	return 1;
}

int lk_eventlog_type_size(const struct lk_eventlog *r, uint16_t id)
{
	if (!is_set(r->declared, id))
		return -1;
	return r->size[id];
}

const char *lk_eventlog_type_name(const struct lk_eventlog *r, uint16_t id)
{
	for (size_t i = 0; i < r->n_names; i++)
		if (r->names[i].id == id)
			return r->names[i].name;
	return "";
}

uint64_t lk_eventlog_offset(const struct lk_eventlog *r) { return offset_of(r); }
uint64_t lk_eventlog_last_time(const struct lk_eventlog *r) { return r->last_time; }
uint64_t lk_eventlog_count(const struct lk_eventlog *r) { return r->count; }
int lk_eventlog_ended(const struct lk_eventlog *r) { return r->ended; }
