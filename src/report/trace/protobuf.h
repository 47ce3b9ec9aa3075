/*
 * protobuf.h - just enough of the protocol buffers wire format to write a
 * message: varints, length-delimited fields and packed repeated integers,
 * appended to a growing byte buffer. Used by the pprof writer.
 *
 * Ownership: a buffer owns its bytes (lk_pb_release). Appending never
 * fails visibly: the first allocation failure sets failed and later
 * appends do nothing, so a writer checks once at the end.
 */
#ifndef LK_REPORT_PROTOBUF_H
#define LK_REPORT_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

struct lk_pb {
	uint8_t *b;
	size_t len, cap;
	int failed;
};

void lk_pb_release(struct lk_pb *p);
/* Empty p for reuse (keeps its memory). */
static inline void lk_pb_clear(struct lk_pb *p) { p->len = 0; }

/* Field `field` of wire type varint (omitted when v is 0, as proto3 does). */
void lk_pb_uint(struct lk_pb *p, uint32_t field, uint64_t v);
/* Field `field` of wire type length-delimited: bytes, a string or a
 * message encoded in another buffer. */
void lk_pb_bytes(struct lk_pb *p, uint32_t field, const void *data, size_t n);
static inline void lk_pb_message(struct lk_pb *p, uint32_t field, const struct lk_pb *m)
{
	lk_pb_bytes(p, field, m->b, m->len);
}
/* A packed repeated integer field. */
void lk_pb_packed(struct lk_pb *p, uint32_t field, const uint64_t *v, size_t n);

#endif
