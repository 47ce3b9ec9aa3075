/* text_frames.c - numbers and stacks as the text reports print them. */
#include <inttypes.h>
#include <string.h>

#include "report/text_frames.h"

#define NAME_MIN 28   /* the columns of a stack of short names */
#define WHERE_MIN 24
#define NAME_MAX 72   /* a longer name (C++ templates) pushes its own line only */
#define WHERE_MAX 40

const char *lk_grouped(uint64_t v, char *buf, size_t size)
{
	char raw[32];
	int n = snprintf(raw, sizeof(raw), "%" PRIu64, v), k = 0;
	for (int i = 0; i < n && (size_t)k + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = raw[i];
	}
	buf[k] = 0;
	return buf;
}

static void frame_name(const struct lk_frame_text *f, char *buf, size_t size)
{
	if (f->function)
		snprintf(buf, size, "%s", f->function);
	else
		snprintf(buf, size, "%s+0x%" PRIx64, f->module ? f->module : "?", f->offset);
}

static void frame_where(const struct lk_frame_text *f, char *buf, size_t size)
{
	const char *slash = f->file ? strrchr(f->file, '/') : NULL;
	buf[0] = 0;
	if (f->file)
		snprintf(buf, size, "%s:%d", slash ? slash + 1 : f->file, f->line);
}

static int width(size_t len, int min, int max)
{
	return len < (size_t)min ? min : len > (size_t)max ? max : (int)len;
}

void lk_text_frames(FILE *out, const char *indent, const struct lk_frame_text *f, size_t n)
{
	char name[512], where[512];
	int wn = NAME_MIN, ww = WHERE_MIN;
	for (size_t i = 0; i < n; i++) {
		frame_name(&f[i], name, sizeof(name));
		frame_where(&f[i], where, sizeof(where));
		int a = width(strlen(name), NAME_MIN, NAME_MAX), b = width(strlen(where), WHERE_MIN, WHERE_MAX);
		wn = a > wn ? a : wn;
		ww = b > ww ? b : ww;
	}
	for (size_t i = 0; i < n; i++) {
		frame_name(&f[i], name, sizeof(name));
		frame_where(&f[i], where, sizeof(where));
		fprintf(out, "%s#%-2zu %-*s %-*s (%s)%s\n", indent, i, wn, name, ww, where,
			f[i].module ? f[i].module : "?", f[i].inlined ? " [inlined]" : "");
	}
}
