/* json.c - JSON string and number writing (see json.h). */
#include <inttypes.h>
#include <math.h>

#include "analyze/timeline.h"
#include "report/json.h"

/* Length of the valid UTF-8 sequence at s, or 0. */
static int utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	int n = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (n == 0 || (n == 2 && s[0] < 0xc2) || (n == 4 && s[0] > 0xf4))
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0;
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return n;
}

void lk_json_string(FILE *out, const char *str)
{
	if (!str) {
		fputs("null", out);
		return;
	}
	const unsigned char *s = (const unsigned char *)str;
	putc('"', out);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			putc('\\', out);
			putc(*s++, out);
		} else if (*s == '\n' || *s == '\r' || *s == '\t') {
			fputs(*s == '\n' ? "\\n" : *s == '\r' ? "\\r" : "\\t", out);
			s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\u%04x", *s++);
		} else if (*s == '<' && s[1] == '/') {
			fputs("<\\/", out); /* no end tag inside <script> */
			s += 2;
		} else if (*s == '<' && s[1] == '!') {
			fputs("\\u003c", out); /* nor a comment */
			s++;
		} else if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9)) {
			fprintf(out, "\\u%04x", s[2] == 0xa8 ? 0x2028 : 0x2029);
			s += 3;
		} else {
			int n = utf8_len(s);
			if (n == 0) {
				fputs("\\ufffd", out);
				s++;
			} else {
				fwrite(s, 1, (size_t)n, out);
				s += n;
			}
		}
	}
	putc('"', out);
}

/* printf's "%lld" without printf */
static void write_integer(FILE *out, int64_t x)
{
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u = x < 0 ? -(uint64_t)x : (uint64_t)x;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (x < 0)
		*--p = '-';
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

/* Digits of u, at least min_width of them (zero-padded), ending at end;
 * returns where they start. */
static char *put_digits(char *end, uint64_t u, int min_width)
{
	char *p = end;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) || end - p < min_width);
	return p;
}

/* Numbers are most of a timeline's JSON: bytes (integers) and times
 * (nanoseconds in seconds). Both are written exactly without printf: v is
 * written as the decimal k / 10^9 when the double nearest that decimal is v
 * itself, so that it reads back as v. 0: v is neither (printf it). */
static int write_fast(FILE *out, double v)
{
	if (!(fabs(v) < 9e6))
		return 0;
	int64_t k = llround(v * 1e9);
	if ((double)k / 1e9 != v)
		return 0;
	uint64_t u = k < 0 ? -(uint64_t)k : (uint64_t)k, frac = u % 1000000000u;
	char buf[40], *end = buf + sizeof(buf), *p = end;
	if (frac) {
		int width = 9;
		while (frac % 10 == 0)
			frac /= 10, width--;  /* no trailing zeros */
		p = put_digits(p, frac, width);
		*--p = '.';
	}
	p = put_digits(p, u / 1000000000u, 1);
	if (k < 0)
		*--p = '-';
	fwrite_unlocked(p, 1, (size_t)(end - p), out);
	return 1;
}

void lk_json_number(FILE *out, double v)
{
	if (!isfinite(v))
		fputs("null", out);
	else if (fabs(v) < 9e15 && v == (double)(int64_t)v)
		write_integer(out, (int64_t)v);
	else if (!write_fast(out, v))
		fprintf(out, "%.17g", v);
}

void lk_json_frames(FILE *out, const struct lk_frame_text *f, size_t n)
{
	putc('[', out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",{\"function\":" : "{\"function\":", out);
		lk_json_string(out, f[i].function);
		fputs(",\"file\":", out);
		lk_json_string(out, f[i].file);
		if (f[i].file)
			fprintf(out, ",\"line\":%d", f[i].line);
		else
			fputs(",\"line\":null", out);
		fputs(",\"module\":", out);
		lk_json_string(out, f[i].module);
		fprintf(out, ",\"offset\":\"0x%" PRIx64 "\",\"inlined\":%s}", f[i].offset,
			f[i].inlined ? "true" : "false");
	}
	putc(']', out);
}
