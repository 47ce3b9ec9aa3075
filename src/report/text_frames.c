/* text_frames.c - numbers and stacks as the text reports print them. */
#include <string.h>

#include "report/text_frames.h"

#define NAME_MIN 28   /* the columns of a stack of short names */
#define WHERE_MIN 24
#define NAME_MAX 72   /* a longer name (C++ templates) pushes its own line only */
#define WHERE_MAX 40

#define TEXT_MAX 511   /* a name or a place is cut there */

/* s (n bytes, cut to what is left of TEXT_MAX) at buf + k: the new k */
static size_t put(char *buf, size_t k, const char *s, size_t n)
{
	if (n > TEXT_MAX - k)
		n = TEXT_MAX - k;
	memcpy(buf + k, s, n);
	return k + n;
}

/* v in base 10 or 16 at buf + k: the new k */
static size_t put_number(char *buf, size_t k, uint64_t v, unsigned base)
{
	char digits[24];
	size_t n = sizeof(digits);
	do {
		digits[--n] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	return put(buf, k, digits + n, sizeof(digits) - n);
}

const char *lk_grouped(uint64_t v, char *buf, size_t size)
{
	char raw[TEXT_MAX + 1];
	int n = (int)put_number(raw, 0, v, 10), k = 0;
	for (int i = 0; i < n && (size_t)k + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = raw[i];
	}
	buf[k] = 0;
	return buf;
}

/* function, or module+0xOFFSET: its length in buf (TEXT_MAX + 1 bytes) */
static size_t frame_name(const struct lk_frame_text *f, char *buf)
{
	size_t k;
	if (f->function) {
		k = put(buf, 0, f->function, strlen(f->function));
	} else {
		const char *m = f->module ? f->module : "?";
		k = put(buf, 0, m, strlen(m));
		k = put(buf, k, "+0x", 3);
		k = put_number(buf, k, f->offset, 16);
	}
	buf[k] = 0;
	return k;
}

/* file:line, the file without its directories; "" without a file */
static size_t frame_where(const struct lk_frame_text *f, char *buf)
{
	size_t k = 0;
	if (f->file) {
		const char *slash = strrchr(f->file, '/'), *base = slash ? slash + 1 : f->file;
		k = put(buf, 0, base, strlen(base));
		k = put(buf, k, ":", 1);
		if (f->line < 0)
			k = put(buf, k, "-", 1);
		k = put_number(buf, k, f->line < 0 ? 0 - (uint64_t)f->line : (uint64_t)f->line, 10);
	}
	buf[k] = 0;
	return k;
}

static int width(size_t len, int min, int max)
{
	return len < (size_t)min ? min : len > (size_t)max ? max : (int)len;
}

/* s and spaces up to w bytes */
static void put_padded(FILE *out, const char *s, size_t n, int w)
{
	static const char spaces[] = "                                                                        ";
	fwrite(s, 1, n, out);
	for (size_t pad = n < (size_t)w ? (size_t)w - n : 0; pad; ) {
		size_t k = pad < sizeof(spaces) - 1 ? pad : sizeof(spaces) - 1;
		fwrite(spaces, 1, k, out);
		pad -= k;
	}
}

/* Without printf: a report prints thousands of frames (a tenth of
 * CPython's report went to formatting them so). */
void lk_text_frames(FILE *out, const char *indent, const struct lk_frame_text *f, size_t n)
{
	char name[TEXT_MAX + 1], where[TEXT_MAX + 1], index[24];
	int wn = NAME_MIN, ww = WHERE_MIN;
	for (size_t i = 0; i < n; i++) {
		int a = width(frame_name(&f[i], name), NAME_MIN, NAME_MAX);
		int b = width(frame_where(&f[i], where), WHERE_MIN, WHERE_MAX);
		wn = a > wn ? a : wn;
		ww = b > ww ? b : ww;
	}
	size_t indent_len = strlen(indent);
	for (size_t i = 0; i < n; i++) {
		const char *module = f[i].module ? f[i].module : "?";
		fwrite(indent, 1, indent_len, out);
		putc('#', out);
		put_padded(out, index, put_number(index, 0, i, 10), 2);
		putc(' ', out);
		put_padded(out, name, frame_name(&f[i], name), wn);
		putc(' ', out);
		put_padded(out, where, frame_where(&f[i], where), ww);
		fputs(" (", out);
		fputs(module, out);
		fputs(f[i].inlined ? ") [inlined]\n" : ")\n", out);
	}
}
