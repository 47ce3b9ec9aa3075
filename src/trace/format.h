/*
 * format.h - the on-disk format of leakscope traces, shared by the writer,
 * the reader, the tests and the fuzz target. docs/trace-format.md is the
 * prose description of the same thing; keep the two in step.
 *
 * A trace is a file header followed by self-describing chunks. Every
 * integer of fixed width is little-endian; variable-width integers are
 * LEB128 varints (7 bits a byte, low group first, at most 10 bytes), signed
 * ones zigzag-mapped first. Each chunk is a 48-byte header and a payload
 * (one zstd frame, or stored bytes), each protected by a CRC-32, so a
 * reader can stop at the last complete chunk of a file that a crashed
 * writer left behind. Decoder state (times, threads, addresses) restarts in
 * every chunk: a chunk needs from those before it only the stacks and
 * modules they defined and, from version 2.0, the allocations its FREEs
 * name (by their number, so that a reader needs no table of addresses).
 */
#ifndef LK_TRACE_FORMAT_H
#define LK_TRACE_FORMAT_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- file header ------------------------------------------------------ */

#define LK_TRACE_MAGIC "LKTRACE"     /* 8 bytes with its NUL */
#define LK_TRACE_MAGIC_LEN 8
#define LK_TRACE_VERSION 2           /* major: readers refuse a newer one */
#define LK_TRACE_MINOR 1             /* minor: additions older readers skip */
#define LK_TRACE_VERSION_OLDEST 1    /* the oldest major readers still read */

/*
 *  0  8  magic "LKTRACE\0"
 *  8  4  version (major)
 * 12  4  minor version
 * 16  4  header size H in bytes, CRC included (52 + L in version 1.0)
 * 20  4  pid of the traced process
 * 24  8  wall-clock time (CLOCK_REALTIME) at trace time 0, ns since the epoch
 * 32  4  tick: ns per unit of trace time (1000: times are microseconds)
 * 36  4  resolution of the clock that took the times, ns
 * 40  4  flags (none defined; readers ignore unknown bits)
 * 44  4  command-line length L
 * 48  L  command line, arguments separated by NUL bytes
 * ..     fields added by later minor versions (skipped by older readers)
 * H-4 4  CRC-32 of bytes 0 .. H-5
 */
#define LK_TRACE_HEADER_FIXED 48
#define LK_TRACE_HEADER_MIN (LK_TRACE_HEADER_FIXED + 4)
#define LK_TRACE_HEADER_MAX (1u << 20)
#define LK_TRACE_CMDLINE_MAX (256u * 1024u)

/* ---- chunks ----------------------------------------------------------- */

#define LK_CHUNK_MAGIC 0x48434b4cu   /* "LKCH" as stored */
#define LK_CHUNK_HEADER_SIZE 48

/*
 *  0  4  magic "LKCH"
 *  4  1  type (enum lk_chunk_type)
 *  5  1  codec: 0 stored, 1 zstd
 *  6  2  flags (none defined; readers ignore unknown bits)
 *  8  4  payload size as stored (compressed)
 * 12  4  payload size decoded (raw)
 * 16  4  number of records in the payload
 * 20  4  sequence number of the chunk (0, 1, 2, ... in file order)
 * 24  8  time of the first event (EVENTS), else the writer's time then
 * 32  8  time of the last event (EVENTS), else the same
 * 40  4  CRC-32 of the stored payload
 * 44  4  CRC-32 of header bytes 0 .. 43
 */
enum lk_chunk_type {
	LK_CHUNK_EVENTS = 1,
	LK_CHUNK_STACKS = 2,
	LK_CHUNK_MODULES = 3,
	LK_CHUNK_SYMBOLS = 4,
	LK_CHUNK_END = 5,
	LK_CHUNK_CLASSES = 6,       /* 2.1 */
};

enum lk_chunk_codec {
	LK_CODEC_STORED = 0,
	LK_CODEC_ZSTD = 1,
};

struct lk_chunk_header {
	uint8_t type, codec;
	uint16_t flags;
	uint32_t stored_size, raw_size, count, seq;
	uint64_t t_first, t_last;
	uint32_t crc;               /* of the stored payload */
};

/* Limits readers enforce (writers stay far below). */
#define LK_CHUNK_RAW_MAX (16u << 20)      /* decoded payload of one chunk */
#define LK_CHUNK_STORED_MAX (17u << 20)   /* payload as stored */
#define LK_TRACE_CHUNK_TARGET (1u << 20)  /* the writer closes a chunk here */

/* ---- EVENTS payload ----------------------------------------------------
 * Columns: each field of an event goes to the stream of its kind (enum
 * lk_trace_event_stream), which is what lets zstd find the regularities of
 * each: tags repeat, sizes and stack ids come from small sets, addresses
 * are what is left.
 *
 * Version 2.0: the chunk is stored (codec 0) and its payload is
 *   varint A   allocations before this chunk in the file (the serial of
 *              its first ALLOC: allocations are numbered 0, 1, 2 ...)
 *   varint S   number of streams (8 in 2.0; readers accept 8..64 and
 *              ignore the streams past those they know)
 *   S pairs    varint decoded length, varint stored length (<= decoded:
 *              equal means stored as is, less means one zstd frame)
 *   the S streams as stored, one after the other
 * so that a reader decodes only the streams it needs (an analysis that
 * never looks at addresses leaves ADDR compressed). The decoded lengths
 * add up to at most LK_CHUNK_RAW_MAX.
 * Version 1.0: the chunk's codec applies to the whole payload: varint S,
 * S varint stream lengths, the streams.
 *
 * Event i is tag byte i of the TAG stream:
 *   bits 0-2  kind (below)
 *   bits 3-4  thread: 0..2 = entry of the thread table (0 = the thread of
 *             the previous event), 3 = a varint tid follows in TID
 *   bits 5-7  time delta: 0..6 = that many ticks, 7 = varint (dt - 7) in TIME
 * and per kind:
 *   ALLOC     STACK: stack id; SIZE: size; ADDR: zigzag(addr - base)
 *   FREE      2.0: REF: distance - 1: the block freed is allocation
 *             number (allocations before this event) - distance, which
 *             is live. 1.0: ADDR: zigzag(addr - last)
 *   FREE_NEXT 2.0: REF: zigzag(n - guess): the block freed is allocation
 *             number n, guess = 1 + the number the chunk's previous free
 *             (FREE or FREE_NEXT) named, A for the first (blocks are often
 *             freed in the order they were made; the writer takes the
 *             shorter of the two)
 *   FREE_REF  1.0: REF: distance - 1: the address of the distance-th
 *             latest ALLOC of this chunk (<= LK_TRACE_RING)
 *   SAMPLE    DATA: rss, live bytes, live blocks (thread bits 0: none)
 *   MARK      DATA: text length, text bytes (no NUL)
 *   SNAPSHOT  DATA: name length, name bytes
 * `last` is the last address of the event's thread in the chunk, `base`
 * the address the coding model (model.h) predicts for the allocation:
 * the thread's last freed block of the size class not yet reused, else
 * its last allocation of the class, else `last`. The thread table holds
 * the 3 threads last seen, most recent first; a used entry moves to the
 * front, a literal tid enters at the front (the last entry leaves, its
 * class tables emptied) with last = the chunk's last address (0 at its
 * start). An address is live at most once: a writer that learns of an
 * allocation at a live address writes the old block's FREE first.
 */
enum lk_trace_event_stream {
	LK_EVS_TAG, LK_EVS_TIME, LK_EVS_TID, LK_EVS_STACK,
	LK_EVS_SIZE, LK_EVS_ADDR, LK_EVS_REF, LK_EVS_DATA,
	LK_EVS_COUNT
};
#define LK_EVS_MAX 64               /* streams a reader accepts */

enum lk_trace_event_kind {
	LK_EVK_ALLOC = 0,
	LK_EVK_FREE = 1,
	LK_EVK_FREE_NEXT = 2,       /* 2.0 */
	LK_EVK_FREE_REF = 2,        /* 1.0 */
	LK_EVK_SAMPLE = 3,
	LK_EVK_MARK = 4,
	LK_EVK_SNAPSHOT = 5,
};
#define LK_TAG_KIND(t) ((t) & 7u)
#define LK_TAG_THREAD(t) (((t) >> 3) & 3u)
#define LK_TAG_DT(t) ((t) >> 5)
#define LK_TAG(kind, thread, dt) ((uint8_t)((kind) | (thread) << 3 | (dt) << 5))
#define LK_TAG_THREAD_LITERAL 3u
#define LK_TAG_DT_VARINT 7u

#define LK_TRACE_THREADS 3          /* thread table entries */
#define LK_TRACE_RING 16384u        /* allocations FREE_REF can name (1.0) */
#define LK_TRACE_CLASSES 119u       /* size classes (model.h) */
#define LK_TRACE_TEXT_MAX 4096u     /* bytes of a mark or snapshot name */

/* ---- STACKS payload ----------------------------------------------------
 * varint id of the first stack; `count` stacks with consecutive ids, each:
 * varint n (1..LK_TRACE_FRAMES_MAX), then n zigzag varints: frame 0 minus
 * frame 0 of the previous stack of the chunk (0 for the first), frame i
 * minus frame i-1. Ids start at 1 and are dense over the file; 0 = none.
 */
#define LK_TRACE_FRAMES_MAX 1024u

/* ---- MODULES, SYMBOLS: each record is varint length + body, so later
 * minor versions may append fields (readers skip what they do not know).
 * MODULES body: id (dense from 1), time, load bias, path (string),
 *   build id (string of bytes), n ranges, then per range: start,
 *   end - start, file offset, prot (PROT_* bits).
 * SYMBOLS body: address, module id (0 = unknown), n frames (1..16, the
 *   innermost first), then per frame: flags (bit 0: inlined into the next
 *   frame), line, offset in module, function, file, module name.
 * A string is varint (length + 1) then the bytes; 0 means absent.
 */
#define LK_TRACE_STRING_MAX 4096u
#define LK_TRACE_RANGES_MAX 64u
#define LK_TRACE_INLINE_MAX 16u
/* Frame addresses from here (never a program's) stand for the groups of
 * blocks a process had before an attach: one frame, its SYMBOL record
 * names the group (docs/trace-format.md). */
#define LK_TRACE_ATTACH_IP 0xffffff0000000000ull
#define LK_TRACE_BUILD_ID_MAX 64u

/* ---- CLASSES payload (2.1): the verdicts of the scan made as the process
 * ended, on the blocks of the trace still live then. After the last EVENTS
 * chunk (no EVENTS chunk follows one). `count` records:
 *   the scan: varint length + body (later minors may append fields):
 *     varint state (enum lk_trace_scan_state), string note (why there are
 *     no verdicts, or how they were made), string heap note (why a
 *     garbage-collected heap was scanned whole)
 *   count - 1 blocks, allocation numbers ascending over the file:
 *     varint gap: the number minus the previous block's number plus one
 *     (the file's first block: its number), then
 *     varint class (enum lk_trace_verdict) | leader << 3, the leader being
 *     for an indirectly lost block the stack id of the definitely lost
 *     block that holds it, else 0.
 * A writer closes a chunk past LK_TRACE_CHUNK_TARGET bytes and begins
 * the next with the same scan record. A trace without CLASSES chunk has
 * no verdicts (its recording did not end, or was made before 2.1).
 */
enum lk_trace_scan_state {
	LK_TRACE_SCANNED = 0,       /* blocks carry their verdict */
	LK_TRACE_NOT_SCANNED = 1,   /* no scan: the note says why; no blocks */
};

enum lk_trace_verdict {         /* the values of analyze/leaks.h's classes */
	LK_TRACE_DEFINITE = 0,
	LK_TRACE_INDIRECT = 1,
	LK_TRACE_POSSIBLE = 2,
	LK_TRACE_REACHABLE = 3,
	LK_TRACE_NOT_FREED = 4,     /* the scan could not decide (overlapping blocks) */
	LK_TRACE_IGNORED = 5,       /* kept on purpose (__lsan_disable): never a leak */
	LK_TRACE_CLASS_COUNT
};

/* ---- END payload: varints n_events, n_allocs, n_frees, bytes allocated,
 * n_stacks, n_modules, n_symbols, n_chunks before this one, last time;
 * later minors may append more. */

/* ---- helpers ---------------------------------------------------------- */

/* CRC-32 (IEEE 802.3, reflected 0xEDB88320): zlib's crc32(). Start with
 * crc = 0. */
uint32_t lk_trace_crc32(uint32_t crc, const void *data, size_t n);

/* Encode h into out (computing the header CRC). */
void lk_trace_chunk_header_put(uint8_t out[LK_CHUNK_HEADER_SIZE],
			       const struct lk_chunk_header *h);

/* Decode a chunk header; checks the magic and (if verify) the header CRC.
 * 0 or LK_EFORMAT (no detail set: the caller knows the offset). */
int lk_trace_chunk_header_get(const uint8_t in[LK_CHUNK_HEADER_SIZE],
			      struct lk_chunk_header *h, int verify);

static inline void lk_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static inline void lk_put_le64(uint8_t *p, uint64_t v)
{
	lk_put_le32(p, (uint32_t)v);
	lk_put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t lk_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t lk_get_le64(const uint8_t *p)
{
	return (uint64_t)lk_get_le32(p) | (uint64_t)lk_get_le32(p + 4) << 32;
}

static inline uint64_t lk_zigzag(uint64_t delta)
{
	return (delta << 1) ^ (uint64_t)((int64_t)delta >> 63);
}

static inline uint64_t lk_unzigzag(uint64_t v)
{
	return (v >> 1) ^ (0 - (v & 1));
}

/* Append a varint at p (room for 10 bytes); returns the new end. */
static inline uint8_t *lk_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Bytes lk_put_varint() writes for v. */
static inline unsigned lk_varint_len(uint64_t v)
{
	unsigned n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Read a varint from [*pp, end): 0 and *pp advanced, or -1 when it runs
 * past end or past 64 bits. Non-minimal encodings are accepted. */
static inline int lk_get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	if (p < end && *p < 0x80) {   /* one byte: tags, times, most sizes */
		*v = *p;
		*pp = p + 1;
		return 0;
	}
	if (end - p >= 2 && p[1] < 0x80) {   /* two: stack ids, sizes */
		*v = (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
		*pp = p + 2;
		return 0;
	}
	if (end - p >= 8) {
		/* Branch-free for up to 8 bytes (56 bits), which is nearly every
		 * varint: mispredicted length loops cost more than the rest of
		 * an event's decoding. */
		uint64_t w;
		memcpy(&w, p, 8);
		w = le64toh(w);
		uint64_t stop = ~w & 0x8080808080808080ull;
		if (stop) {
			unsigned bits = (unsigned)__builtin_ctzll(stop) + 1;   /* 8, 16 .. 64 */
			uint64_t x = bits == 64 ? w : w & ((1ull << bits) - 1);
			x = ((x & 0x7f007f007f007f00ull) >> 1) | (x & 0x007f007f007f007full);
			x = ((x & 0x3fff00003fff0000ull) >> 2) | (x & 0x00003fff00003fffull);
			x = ((x & 0x0fffffff00000000ull) >> 4) | (x & 0x000000000fffffffull);
			*v = x;
			*pp = p + bits / 8;
			return 0;
		}
	}
	uint64_t x = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (p >= end)
			return -1;
		uint8_t b = *p++;
		if (shift == 63 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80) {
			*v = x;
			*pp = p;
			return 0;
		}
	}
	return -1;
}

/* Bytes >= 0x80 after each stream of a bulk reader (reader.h). */
#define LK_TRACE_STREAM_PAD 2

/* lk_get_varint() of a stream followed by LK_TRACE_STREAM_PAD bytes of
 * 0xFF: a byte below 0x80 is never one of those, so the one- and two-byte
 * cases (nearly every value) need no bounds check, and never step past
 * end; the rest, and the end of the stream, take the checked way. */
static inline int lk_get_varint_padded(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	if (p[0] < 0x80) {
		*v = p[0];
		*pp = p + 1;
		return 0;
	}
	if (p[1] < 0x80) {
		*v = (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
		*pp = p + 2;
		return 0;
	}
	return lk_get_varint(pp, end, v);
}

#endif
