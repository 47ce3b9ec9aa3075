/*
 * bigendian.h - the big-endian integers of the GHC eventlog format, read
 * from unaligned bytes.
 */
#ifndef LK_EVENTLOG_BIGENDIAN_H
#define LK_EVENTLOG_BIGENDIAN_H

#include <stdint.h>
#include <string.h>

static inline uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static inline uint32_t be32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return __builtin_bswap32(v);
}

static inline uint64_t be64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

#endif
