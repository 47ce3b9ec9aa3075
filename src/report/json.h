/*
 * json.h - the small JSON writer every JSON output uses: strings escaped
 * (control characters, quotes, invalid UTF-8 replaced by U+FFFD; "</", "<!"
 * and U+2028/2029 too, so the same text is safe inside an HTML <script>
 * element), numbers written so they read back exactly.
 */
#ifndef LK_REPORT_JSON_H
#define LK_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Write s as a JSON string literal; NULL is written as null. */
void lk_json_string(FILE *out, const char *s);
/* Write a double; non-finite values are written as null. */
void lk_json_number(FILE *out, double v);
/* Write an unsigned integer in decimal after the character sep (none if
 * 0), without printf and in one write (the arrays of a flame graph hold
 * tens of thousands). */
void lk_json_uint(FILE *out, char sep, uint64_t u);
/* Write n doubles as an array, formatted in one buffer. */
void lk_json_numbers(FILE *out, const double *v, size_t n);
/* Write {"key":value,...} of n doubles, formatted in one buffer; the keys
 * are plain ASCII of at most 32 bytes, written as they are. */
void lk_json_number_fields(FILE *out, const char *const *keys, const double *v, size_t n);

struct lk_frame_text;
/* A stack as an array of frame objects (docs/json-leaks.md): function,
 * file, line, module, offset (hex string), inlined. */
void lk_json_frames(FILE *out, const struct lk_frame_text *f, size_t n);

#endif
