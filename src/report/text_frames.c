/* text_frames.c - numbers and stacks as the text reports print them. */
#include <string.h>

#include "analyze/alloc_frames.h"
#include "analyze/suppress.h"
#include "report/short_name.h"
#include "report/text_frames.h"

#define NAME_MIN 28   /* the columns of a stack of short names */
#define WHERE_MIN 24
#define NAME_MAX 64   /* a longer name is cut in its middle */
#define NAME_HEAD 24  /* ... keeping this many columns of its start */
#define WHERE_MAX 40
#define WHERE_HEAD 8

#define TEXT_MAX 511   /* a name or a place is cut there */
#define TEXT_BUF (TEXT_MAX + 8)

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

/* function (shortened), or module+0xOFFSET, at most NAME_MAX columns:
 * its length in buf (TEXT_BUF bytes) */
static size_t frame_name(const struct lk_frame_text *f, char *buf)
{
	size_t k;
	if (f->function) {
		k = lk_short_name(f->function, buf, TEXT_MAX + 1);
	} else {
		const char *m = f->module ? f->module : "?";
		k = put(buf, 0, m, strlen(m));
		k = put(buf, k, "+0x", 3);
		k = put_number(buf, k, f->offset, 16);
	}
	buf[k] = 0;
	return lk_cut_middle(buf, k, NAME_MAX, NAME_HEAD);
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
	return lk_cut_middle(buf, k, WHERE_MAX, WHERE_HEAD);
}

static int width(const char *s, size_t len, int min)
{
	size_t cols = lk_text_columns(s, len);
	return cols < (size_t)min ? min : (int)cols;
}

/* s and spaces up to w columns, s painted */
static void put_padded(FILE *out, const char *s, size_t n, int w,
		       const struct lk_text_style *st, enum lk_text_paint paint)
{
	static const char spaces[] = "                                                                        ";
	size_t cols = lk_text_columns(s, n);
	int painted = n && st && paint != LK_PAINT_PLAIN;
	if (painted)
		lk_text_paint(out, st, paint);
	fwrite(s, 1, n, out);
	if (painted)
		lk_text_plain(out, st);
	for (size_t pad = cols < (size_t)w ? (size_t)w - cols : 0; pad; ) {
		size_t k = pad < sizeof(spaces) - 1 ? pad : sizeof(spaces) - 1;
		fwrite(spaces, 1, k, out);
		pad -= k;
	}
}

static int named(const char *function, const char *const *names)
{
	for (const char *const *n = names; function && *n; n++)
		if (!strcmp(function, *n))
			return 1;
	return 0;
}

/* Rust's runtime between C's main and the program's main. */
static const char *const rust_start[] = {
	"std::rt::lang_start", "std::rt::lang_start_internal", "std::rt::lang_start::{{closure}}",
	"std::sys::backtrace::__rust_begin_short_backtrace",
	"std::sys_common::backtrace::__rust_begin_short_backtrace",
	"core::ops::function::FnOnce::call_once", NULL,
};

/* The frame at the bottom of f[0 .. n) is one a program starts with,
 * below its main function or a thread's start routine: C's start-up,
 * thread creation, Go's runtime, Rust's (and C's main under it). */
static int startup_frame(const struct lk_frame_text *f, size_t n)
{
	static const char *const names[] = {
		"_start", "__libc_start_main", "__libc_start_main_impl", "__libc_start_call_main",
		"start_thread", "clone", "clone3", "__clone", "__clone3", "__clone_internal",
		"runtime.main", "runtime.goexit", "runtime.goexit.abi0", "runtime.mstart",
		"runtime.mstart0", "runtime.mstart1", NULL,
	};
	const char *fn = f[n - 1].function;
	if (named(fn, names) || named(fn, rust_start))
		return 1;
	return fn && !strcmp(fn, "main") && n >= 2 && named(f[n - 2].function, rust_start);
}

/* How many of the n frames to show: without the start-up frames at the
 * bottom, unless st says full stacks. */
static size_t frames_shown(const struct lk_frame_text *f, size_t n, const struct lk_text_style *st)
{
	while (!(st && st->full_stacks) && n > 1 && startup_frame(f, n))
		n--;
	return n;
}

/* Without printf: a report prints thousands of frames (a tenth of
 * CPython's report went to formatting them so). */
void lk_text_frames(FILE *out, const char *indent, const struct lk_frame_text *f, size_t n,
		    const struct lk_text_style *st)
{
	char name[TEXT_BUF], where[TEXT_BUF], index[24];
	int wn = NAME_MIN, ww = WHERE_MIN;
	n = frames_shown(f, n, st);
	for (size_t i = 0; i < n; i++) {
		int a = width(name, frame_name(&f[i], name), NAME_MIN);
		int b = width(where, frame_where(&f[i], where), WHERE_MIN);
		wn = a > wn ? a : wn;
		ww = b > ww ? b : ww;
	}
	size_t indent_len = strlen(indent), caller = lk_alloc_caller(f, n);
	for (size_t i = 0; i < n; i++) {
		const char *module = f[i].module ? f[i].module : "?";
		enum lk_text_paint paint = i == caller ? LK_PAINT_FUNC
			: lk_suppress_system_module(f[i].module) ? LK_PAINT_DIM : LK_PAINT_PLAIN;
		fwrite(indent, 1, indent_len, out);
		putc('#', out);
		put_padded(out, index, put_number(index, 0, i, 10), 2, NULL, LK_PAINT_PLAIN);
		putc(' ', out);
		put_padded(out, name, frame_name(&f[i], name), wn, st, paint);
		putc(' ', out);
		put_padded(out, where, frame_where(&f[i], where), ww, st, LK_PAINT_PLACE);
		lk_text_paint(out, st, LK_PAINT_DIM);
		fputs(" (", out);
		fputs(module, out);
		fputs(f[i].inlined ? ") [inlined]" : ")", out);
		lk_text_plain(out, st);
		putc('\n', out);
	}
}

void lk_text_more_sites(FILE *out, const char *indent, size_t more,
			const struct lk_text_style *st)
{
	if (!more)
		return;
	fputs(indent, out);
	lk_text_paint(out, st, LK_PAINT_DIM);
	fprintf(out, "... and %zu more allocation site%s (--top 0 lists them all)", more,
		more == 1 ? "" : "s");
	lk_text_plain(out, st);
	putc('\n', out);
}
