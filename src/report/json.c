/* json.c - JSON string and number writing (see json.h). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "analyze/timeline.h"
#include "report/json.h"
#include "report/utf8.h"

/* U+2028 or U+2029 at s: line ends to JavaScript, not to JSON. */
static int js_line_end(const unsigned char *s)
{
	return s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9);
}

/* Bytes from s that go out as they are: a run written at once. */
static size_t plain_run(const unsigned char *s)
{
	const unsigned char *p = s;
	for (;;) {
		if (*p >= 0x20 && *p < 0x7f) {
			if (*p == '"' || *p == '\\' || *p == '<')
				break;
			p++;
			continue;
		}
		int n = *p >= 0x80 ? lk_utf8_len(p) : 0;
		if (n == 0 || js_line_end(p))
			break;
		p += n;
	}
	return (size_t)(p - s);
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
		size_t run = plain_run(s);
		if (run) {
			fwrite(s, 1, run, out);
			s += run;
		} else if (*s == '"' || *s == '\\') {
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
		} else if (*s == '<') {
			putc(*s++, out);
		} else if (js_line_end(s)) {
			fprintf(out, "\\u%04x", s[2] == 0xa8 ? 0x2028 : 0x2029);
			s += 3;
		} else {   /* not UTF-8 */
			fputs("\\ufffd", out);
			s++;
		}
	}
	putc('"', out);
}

/* Decimal digits of u: from its bit length (log10(2) ~ 1233 / 4096), then
 * one compare. */
static int digit_count(uint64_t u)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	int t = (64 - __builtin_clzll(u | 1)) * 1233 >> 12;  /* 0..19 */
	return u ? t + (u >= pow10[t]) : 1;
}

static const char pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The last `width` decimal digits of u (zero-padded) at buf, written in
 * place (no copy after: a copy of bytes just stored stalls). */
static void put_digits(char *buf, uint64_t u, int width)
{
	char *p = buf + width;
	for (; p - buf >= 2; u /= 100) {  /* two digits a division */
		p -= 2;
		memcpy(p, pairs + 2 * (u % 100), 2);
	}
	if (p > buf)
		*--p = (char)('0' + u % 10);
}

static const uint64_t pow10_u[10] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

#define NUMBER_MAX 32   /* bytes of a number's text */

/* Small non-negative integers, most of a heap profile's numbers (its
 * bands' bytes), in 32-bit arithmetic; 0 when v is not one. */
static inline __attribute__((always_inline)) size_t format_small(char *buf, double v)
{
	if (!(v >= 0 && v < 10000 && v == (double)(uint32_t)v))
		return 0;
	uint32_t s = (uint32_t)v;
	if (s < 10)
		return buf[0] = (char)('0' + s), 1;
	if (s < 100)
		return memcpy(buf, pairs + 2 * s, 2), 2;
	if (s < 1000) {
		buf[0] = (char)('0' + s / 100);
		memcpy(buf + 1, pairs + 2 * (s % 100), 2);
		return 3;
	}
	memcpy(buf, pairs + 2 * (s / 100), 2);
	memcpy(buf + 2, pairs + 2 * (s % 100), 2);
	return 4;
}

/* The text of v rounded to `decimals` places (0..9) at buf (NUMBER_MAX
 * bytes, no terminator); its length. Integer arithmetic from the rounded
 * value (to nearest, ties to even as printf), so that no binary noise
 * shows: 0.1 + 0.2 to 4 places is "0.3".
 * No trailing zeros, no "-0"; null when not finite. Where the decimals do
 * not fit a 64-bit integer (|v| * 10^decimals >= 9e18), v rounded to an
 * integer; from 9e18 on, 15 significant digits. */
static inline __attribute__((always_inline)) size_t format_fixed(char *buf, double v,
								 int decimals)
{
	size_t small = format_small(buf, v);
	if (small)
		return small;
	if (!isfinite(v)) {
		memcpy(buf, "null", 4);
		return 4;
	}
	if (decimals < 0 || decimals > 9)
		decimals = decimals < 0 ? 0 : 9;
	double scaled = v * (double)pow10_u[decimals];
	if (fabs(scaled) >= 9e18) {   /* no room for decimals: an integer */
		if (fabs(v) >= 9e18)
			return (size_t)snprintf(buf, NUMBER_MAX, "%.15g", v);
		decimals = 0;
		scaled = v;
	}
	int64_t k = llrint(scaled);   /* one instruction; ties to even */
	uint64_t u = k < 0 ? -(uint64_t)k : (uint64_t)k;
	uint64_t whole = u / pow10_u[decimals], frac = u % pow10_u[decimals];
	size_t n = 0;
	if (k < 0)
		buf[n++] = '-';
	int w = digit_count(whole);
	put_digits(buf + n, whole, w);
	n += (size_t)w;
	if (frac) {
		int width = decimals;
		while (frac % 10 == 0)
			frac /= 10, width--;
		buf[n++] = '.';
		put_digits(buf + n, frac, width);
		n += (size_t)width;
	}
	return n;
}

void lk_json_uint(FILE *out, char sep, uint64_t u)
{
	char buf[21];
	size_t k = sep != 0;
	buf[0] = sep;
	int n = digit_count(u);
	put_digits(buf + k, u, n);
	fwrite(buf, 1, k + (size_t)n, out);
}

void lk_json_fixed(FILE *out, double v, int decimals)
{
	char buf[NUMBER_MAX];
	fwrite(buf, 1, format_fixed(buf, v, decimals), out);
}

void lk_json_fixed_array(FILE *out, const double *v, size_t n, double scale, int decimals)
{
	char buf[8192];
	size_t k = 0;
	buf[k++] = '[';
	for (size_t i = 0; i < n; i++) {
		if (k > sizeof(buf) - NUMBER_MAX - 2) {
			fwrite(buf, 1, k, out);
			k = 0;
		}
		if (i)
			buf[k++] = ',';
		k += format_fixed(buf + k, v[i] * scale, decimals);
	}
	buf[k++] = ']';
	fwrite(buf, 1, k, out);
}

void lk_json_ident(FILE *out, const char *name)
{
	putc('"', out);
	for (const char *p = name ? name : ""; *p; p++) {
		char c = *p;
		int ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_';
		putc(ident ? c : '_', out);
	}
	putc('"', out);
}

void lk_json_band_stats(FILE *out, const struct lk_band_stats *s)
{
	static const char *const keys[] = {"{\"integrated\":", ",\"peak\":", ",\"mean\":",
					   ",\"stddev\":", ",\"intercept\":", ",\"slope\":",
					   ",\"fit\":"};
	const double v[] = {s->integrated, s->peak, s->mean, s->stddev,
			    s->intercept, s->slope, s->fit};
	const int decimals[] = {LK_JSON_RATE_DECIMALS, LK_JSON_BYTES_DECIMALS,
				LK_JSON_BYTES_DECIMALS, LK_JSON_BYTES_DECIMALS,
				LK_JSON_BYTES_DECIMALS, LK_JSON_RATE_DECIMALS, LK_JSON_FIT_DECIMALS};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fputs(keys[i], out);
		lk_json_fixed(out, v[i], decimals[i]);
	}
	putc('}', out);
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
