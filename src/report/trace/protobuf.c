/* protobuf.c - protocol buffers wire format, writing side (protobuf.h). */
#include <stdlib.h>
#include <string.h>

#include "report/trace/protobuf.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

void lk_pb_release(struct lk_pb *p)
{
	free(p->b);
	memset(p, 0, sizeof(*p));
}

static int reserve(struct lk_pb *p, size_t more)
{
	if (p->failed)
		return -1;
	if (p->len + more <= p->cap)
		return 0;
	size_t cap = p->cap ? p->cap : 256;
	while (cap < p->len + more)
		cap *= 2;
	uint8_t *b = realloc(p->b, cap);
	if (!b) {
		p->failed = 1;
		return -1;
	}
	p->b = b;
	p->cap = cap;
	return 0;
}

static void varint(struct lk_pb *p, uint64_t v)
{
	if (reserve(p, 10))
		return;
	while (v >= 0x80) {
		p->b[p->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p->b[p->len++] = (uint8_t)v;
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void lk_pb_uint(struct lk_pb *p, uint32_t field, uint64_t v)
{
	if (!v)
		return;
	varint(p, (uint64_t)field << 3 | WIRE_VARINT);
	varint(p, v);
}

void lk_pb_bytes(struct lk_pb *p, uint32_t field, const void *data, size_t n)
{
	varint(p, (uint64_t)field << 3 | WIRE_LEN);
	varint(p, n);
	if (n && !reserve(p, n)) {
		memcpy(p->b + p->len, data, n);
		p->len += n;
	}
}

void lk_pb_packed(struct lk_pb *p, uint32_t field, const uint64_t *v, size_t n)
{
	size_t size = 0;
	for (size_t i = 0; i < n; i++)
		size += varint_size(v[i]);
	varint(p, (uint64_t)field << 3 | WIRE_LEN);
	varint(p, size);
	for (size_t i = 0; i < n; i++)
		varint(p, v[i]);
}
