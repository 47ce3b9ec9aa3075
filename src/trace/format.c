/* format.c - chunk headers of the trace format (format.h) and its
 * checksum, zlib's CRC-32. */
#include <zlib.h>

#include "common/error.h"
#include "trace/format.h"

uint32_t lk_trace_crc32(uint32_t crc, const void *data, size_t n)
{
	return (uint32_t)crc32_z(crc, data, n);
}

void lk_trace_chunk_header_put(uint8_t out[LK_CHUNK_HEADER_SIZE],
			       const struct lk_chunk_header *h)
{
	lk_put_le32(out, LK_CHUNK_MAGIC);
	out[4] = h->type;
	out[5] = h->codec;
	out[6] = (uint8_t)h->flags;
	out[7] = (uint8_t)(h->flags >> 8);
	lk_put_le32(out + 8, h->stored_size);
	lk_put_le32(out + 12, h->raw_size);
	lk_put_le32(out + 16, h->count);
	lk_put_le32(out + 20, h->seq);
	lk_put_le64(out + 24, h->t_first);
	lk_put_le64(out + 32, h->t_last);
	lk_put_le32(out + 40, h->crc);
	lk_put_le32(out + 44, lk_trace_crc32(0, out, 44));
}

int lk_trace_chunk_header_get(const uint8_t in[LK_CHUNK_HEADER_SIZE],
			      struct lk_chunk_header *h, int verify)
{
	if (lk_get_le32(in) != LK_CHUNK_MAGIC)
		return LK_EFORMAT;
	if (verify && lk_get_le32(in + 44) != lk_trace_crc32(0, in, 44))
		return LK_EFORMAT;
	h->type = in[4];
	h->codec = in[5];
	h->flags = (uint16_t)(in[6] | in[7] << 8);
	h->stored_size = lk_get_le32(in + 8);
	h->raw_size = lk_get_le32(in + 12);
	h->count = lk_get_le32(in + 16);
	h->seq = lk_get_le32(in + 20);
	h->t_first = lk_get_le64(in + 24);
	h->t_last = lk_get_le64(in + 32);
	h->crc = lk_get_le32(in + 40);
	return 0;
}
