/*
 * json.h - the small JSON writer every JSON output uses: strings escaped
 * (control characters, quotes, invalid UTF-8 replaced by U+FFFD; "</", "<!"
 * and U+2028/2029 too, so the same text is safe inside an HTML <script>
 * element); numbers as integers (bytes, nanoseconds) or decimals rounded
 * to a stated number of places, never with binary noise.
 */
#ifndef LK_REPORT_JSON_H
#define LK_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Write s as a JSON string literal; NULL is written as null. */
void lk_json_string(FILE *out, const char *s);
/* Write an unsigned integer in decimal after the character sep (none if
 * 0), without printf and in one write (the arrays of a flame graph hold
 * tens of thousands). */
void lk_json_uint(FILE *out, char sep, uint64_t u);
/* Write v rounded to `decimals` places (0..9: 0 writes an integer), with
 * no trailing zeros and no binary noise; non-finite values as null. */
void lk_json_fixed(FILE *out, double v, int decimals);
/* Write n values as an array, each v[i] * scale rounded to `decimals`
 * places (scale 1e9, decimals 0: seconds as integer nanoseconds). */
void lk_json_fixed_array(FILE *out, const double *v, size_t n, double scale, int decimals);
/* Write name as an identifier string, for object keys: a character other
 * than a letter, a digit or '_' is written '_' ("source location" becomes
 * "source_location"). */
void lk_json_ident(FILE *out, const char *name);

/* Precision of the statistics of a band (docs/timeline.md) in JSON:
 * bytes are integers, byte-seconds and bytes per second have 3 decimals,
 * R^2 has 4. */
#define LK_JSON_BYTES_DECIMALS 0
#define LK_JSON_RATE_DECIMALS 3
#define LK_JSON_FIT_DECIMALS 4
#define LK_JSON_NS_PER_S 1e9

struct lk_band_stats;
/* The statistics of a band as an object (docs/json-timeline.md):
 * integrated, peak, mean, stddev, intercept, slope, fit, each to its
 * precision above. */
void lk_json_band_stats(FILE *out, const struct lk_band_stats *s);

struct lk_frame_text;
/* A stack as an array of frame objects (docs/json-leaks.md): function,
 * file, line, module, offset (hex string), inlined. */
void lk_json_frames(FILE *out, const struct lk_frame_text *f, size_t n);

#endif
