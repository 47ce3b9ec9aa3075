/*
 * html_test.c - the HTML report writer (src/report/html.c), TAP output.
 *
 * Hostile strings must stay inside the JSON data block and come out as valid
 * JSON and valid UTF-8; a 10,000-band x 5,000-sample profile must give a
 * page of a few MB, written quickly. The browser side is tested by
 * tests/cli/450-html-browser.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/html.h"
#include "../support/timeline_fixture.h"

static int n_test, n_fail;

static void ok(int cond, const char *what)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", n_test, what);
}

/* ---- a small JSON validator (RFC 8259 grammar, no semantics) ---- */

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *js_value(const char *p, int depth);

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *js_number(const char *p)
{
	const char *s = p;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > s ? p : NULL;
}

static const char *js_seq(const char *p, char close, int depth, int object)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			if (!(p = js_string(js_ws(p))))
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = js_value(p, depth + 1)))
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = js_ws(p);
	switch (*p) {
	case '{': return js_seq(p, '}', depth, 1);
	case '[': return js_seq(p, ']', depth, 0);
	case '"': return js_string(p);
	case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
	default: return js_number(p);
	}
}

static int json_valid(const char *s)
{
	const char *end = js_value(s, 0);
	return end && *js_ws(end) == '\0';
}

static int utf8_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 :
			c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		if (!len || i + len > n)
			return 0;
		for (size_t k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
		if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0) ||
		    (c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90))
			return 0;
		i += len;
	}
	return 1;
}

/* ---- helpers ---- */

static const char DATA_OPEN[] = "<script type=\"application/json\" id=\"data\">";

/* Render tl; returns the page (malloc'd, *len set) or NULL; *rc the result. */
static char *render(const struct lk_timeline *tl, size_t *len, int *rc)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	*rc = lk_timeline_write_html(tl, f);
	fclose(f);
	return buf;
}

/* The data block of page (malloc'd copy), or NULL if it is not there. */
static char *data_block(const char *page)
{
	const char *a = strstr(page, DATA_OPEN), *e;
	char *d;

	if (!a)
		return NULL;
	a += sizeof(DATA_OPEN) - 1;
	if (!(e = strstr(a, "</script>")))
		return NULL;
	d = fx_alloc((size_t)(e - a) + 1);
	memcpy(d, a, (size_t)(e - a));
	return d;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t count_char(const char *s, const char *end, char c)
{
	size_t n = 0;
	for (; s < end; s++)
		n += *s == c;
	return n;
}

/* ---- tests ---- */

static const char EVIL_LABEL[] = "</script><script>alert(1)</script> \"q\" \\ new\nline\ttab \x01 "
				 "bad:\xff\xfe \xc3\x28 \xc0\xaf \xed\xa0\x80 ok:h\xc3\xa9llo \xe2\x9c\x93 <!-- x";

static void build_tricky(struct lk_timeline *tl)
{
	size_t n = 50;

	memset(tl, 0, sizeof(*tl));
	tl->title = fx_str("prog </script> \"quoted\" & <b>bold</b> \xff");
	tl->n_meta = 2;
	tl->meta = fx_alloc(sizeof(*tl->meta) * 2);
	tl->meta[0].key = fx_str("program");
	tl->meta[0].value = fx_str("./a.out --flag='x' </SCRIPT >");
	tl->meta[1].key = fx_str("rts");
	tl->meta[1].value = fx_str("GHC 9.6.3 \x7f\x02");
	tl->n_samples = n;
	tl->times = fx_alloc(sizeof(double) * n);
	for (size_t i = 0; i < n; i++)
		tl->times[i] = 0.25 * (double)i;
	tl->n_detail_columns = 2;
	tl->detail_columns = fx_alloc(sizeof(char *) * 2);
	tl->detail_columns[0] = fx_str("type");
	tl->detail_columns[1] = fx_str("loc</script>");
	tl->n_bands = 3;
	tl->bands = fx_alloc(sizeof(*tl->bands) * 3);
	for (size_t b = 0; b < 3; b++) {
		struct lk_band *bd = &tl->bands[b];
		bd->id = fx_fmt("band%zu", b);
		bd->label = fx_str(b == 0 ? EVIL_LABEL : b == 1 ? "flat band" : "growing band");
		bd->values = fx_alloc(sizeof(double) * n);
		for (size_t i = 0; i < n; i++)
			bd->values[i] = b == 0 ? 5000 : b == 1 ? 1000.5 : 100.0 * (double)i;
		bd->details = fx_alloc(sizeof(char *) * 2);
		bd->details[0] = fx_str(b == 2 ? NULL : "Maybe [Char]");
		bd->details[1] = fx_str("src/A.hs:1:1</script >");
	}
	tl->bands[1].values[3] = NAN; /* NaN must not reach the JSON */
	tl->bands[2].n_frames = 2;
	tl->bands[2].frames = fx_alloc(sizeof(struct lk_frame_text) * 2);
	tl->bands[2].frames[0].function = fx_str("grow<int>(</script>)");
	tl->bands[2].frames[0].file = fx_str("grow.c");
	tl->bands[2].frames[0].line = 42;
	tl->bands[2].frames[0].module = fx_str("victim");
	tl->bands[2].frames[1].module = fx_str("libc.so.6");
	tl->bands[2].frames[1].offset = 0x29d90;
	tl->n_series = 1;
	tl->series = fx_alloc(sizeof(*tl->series));
	tl->series[0].name = fx_str("heap size");
	tl->series[0].n = n;
	tl->series[0].times = fx_alloc(sizeof(double) * n);
	tl->series[0].values = fx_alloc(sizeof(double) * n);
	for (size_t i = 0; i < n; i++) {
		tl->series[0].times[i] = tl->times[i];
		tl->series[0].values[i] = 1 << 20;
	}
	tl->n_markers = 1;
	tl->markers = fx_alloc(sizeof(*tl->markers));
	tl->markers[0].t = 2.5;
	tl->markers[0].text = fx_str("marker </script> \xfe");
	tl->n_warnings = 1;
	tl->warnings = fx_alloc(sizeof(char *));
	tl->warnings[0] = fx_str("truncated at offset 123 </script>");
	fx_finish(tl);
}

static void test_tricky(void)
{
	struct lk_timeline tl;
	size_t len = 0;
	int rc = -1;
	char *page, *data;

	build_tricky(&tl);
	page = render(&tl, &len, &rc);
	ok(page && rc == 0, "tricky: written");
	if (!page) {
		fx_free(&tl, 0);
		return;
	}
	ok(strlen(page) == len, "tricky: no NUL byte in the page");
	ok(utf8_valid((unsigned char *)page, len), "tricky: page is valid UTF-8");
	data = data_block(page);
	ok(data != NULL, "tricky: data block present");
	if (data) {
		const char *after = strstr(page, DATA_OPEN) + sizeof(DATA_OPEN) - 1 + strlen(data);
		ok(strncmp(after, "</script>\n<script>", 18) == 0,
		   "tricky: data block ends where the JSON ends (no </script> inside)");
		ok(strcasestr(data, "</script") == NULL, "tricky: no </script in data, any case");
		ok(strstr(data, "<!--") == NULL, "tricky: no <!-- in data");
		ok(json_valid(data), "tricky: data is valid JSON");
		ok(strstr(data, "<\\/script><script>alert(1)<\\/script> \\\"q\\\" \\\\ new\\nline\\ttab \\u0001 ") != NULL,
		   "tricky: label escaped: </, quotes, backslash, newline, tab, control");
		ok(strstr(data, "bad:\\ufffd\\ufffd \\ufffd( \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd ok:h\xc3\xa9llo \xe2\x9c\x93 \\u003c!-- x") != NULL,
		   "tricky: invalid UTF-8 replaced, valid UTF-8 kept");
		ok(strstr(data, "\"flat band\"") && strstr(data, "\"growing band\""), "tricky: labels present");
		ok(strstr(data, "\"truncated at offset 123 <\\/script>\"") != NULL, "tricky: warning present");
		ok(strstr(data, "[2.5,\"marker <\\/script> \\ufffd\"]") != NULL, "tricky: marker present");
		ok(strstr(data, "\"grow<int>(<\\/script>)\",\"grow.c\",42,\"victim\",\"0x0\",0") != NULL &&
		   strstr(data, "[null,null,0,\"libc.so.6\",\"0x29d90\",0]") != NULL,
		   "tricky: native frames present");
		ok(strstr(data, "[null,\"src/A.hs:1:1<\\/script >\"]") != NULL, "tricky: NULL detail is null");
		ok(strstr(data, "\"program\",\"./a.out --flag='x' <\\/SCRIPT >\"") != NULL, "tricky: meta present");
		ok(strstr(data, "\"nSamples\":50,\"nBands\":3") != NULL, "tricky: counts");
		free(data);
	}
	ok(strstr(page, "<title>prog &lt;/script&gt; &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; \xef\xbf\xbd") != NULL,
	   "tricky: title HTML-escaped");
	ok(strstr(page, "http://") == NULL || strstr(page, "http://www.w3.org/2000/svg") != NULL,
	   "tricky: no URL other than the SVG namespace");
	ok(strstr(page, "https://") == NULL, "tricky: no https URL");
	ok(strstr(page, "Content-Security-Policy") != NULL, "tricky: CSP forbids network");
	free(page);
	fx_free(&tl, 0);
}

static void test_empty(void)
{
	struct lk_timeline tl;
	size_t len = 0;
	int rc = -1;
	char *page, *data;

	memset(&tl, 0, sizeof(tl));
	page = render(&tl, &len, &rc);
	ok(page && rc == 0, "empty: written");
	data = page ? data_block(page) : NULL;
	ok(data && json_valid(data), "empty: valid JSON");
	ok(data && strstr(data, "\"chart\":{\"top\":0,\"t\":[],\"bands\":[],\"other\":null"),
	   "empty: empty chart");
	free(data);
	free(page);
}

static void test_write_error(void)
{
	struct lk_timeline tl;
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		ok(1, "# SKIP no /dev/full");
		return;
	}
	build_tricky(&tl);
	ok(lk_timeline_write_html(&tl, f) == -EIO, "write error: -EIO");
	fclose(f);
	fx_free(&tl, 0);
}

static void test_big(void)
{
	struct lk_timeline tl;
	double *pat, t0, secs;
	size_t len = 0;
	int rc = -1;
	char *page, *data;

	fx_big(&tl, 10000, 5000, &pat);
	t0 = now();
	page = render(&tl, &len, &rc);
	secs = now() - t0;
	printf("# big: 10000 bands x 5000 samples -> %zu bytes (%.2f MiB) in %.3f s\n",
	       len, len / 1048576.0, secs);
	ok(page && rc == 0, "big: written");
	ok(len < 4u << 20, "big: page under 4 MiB");
	ok(secs < 10, "big: written in under 10 s (even with sanitizers)");
	data = page ? data_block(page) : NULL;
	ok(data && json_valid(data), "big: valid JSON");
	if (data) {
		const char *c = strstr(data, "\"chart\":{\"top\":15,\"t\":[");
		const char *e = c ? strchr(c + 22, ']') : NULL;
		size_t pts = c && e ? count_char(strchr(c, '['), e, ',') + 1 : 0;
		const char *s = strstr(data, "\"series\":[{\"name\":\"heap size\",\"n\":5000,\"t\":[");
		const char *se = s ? strchr(s + 45, ']') : NULL;
		size_t spts = s && se ? count_char(s + 44, se, ',') + 1 : 0;

		printf("# big: %zu chart points, %zu heap-size points\n", pts, spts);
		ok(pts > 500 && pts <= LK_HTML_CHART_POINTS, "big: chart downsampled to <= 1000 points");
		ok(spts > 500 && spts <= LK_HTML_CHART_POINTS, "big: series downsampled to <= 1000 points");
		ok(strstr(data, "\"other\":[") != NULL, "big: OTHER present");
		ok(strstr(data, "Data.Map.Internal.Bin_9999") != NULL, "big: every band in the table data");
		free(data);
	}
	if (page && getenv("LK_HTML_OUT")) { /* keep the page for a look */
		FILE *f = fopen(getenv("LK_HTML_OUT"), "w");
		if (f) {
			fwrite(page, 1, len, f);
			fclose(f);
		}
	}
	free(page);
	fx_free(&tl, 1);
	free(pat);
}

/* Min/max downsampling keeps a one-sample spike of a long series. */
static void test_peaks(void)
{
	struct lk_timeline tl;
	size_t len = 0;
	int rc = -1;
	char *page;

	memset(&tl, 0, sizeof(tl));
	tl.n_series = 1;
	tl.series = fx_alloc(sizeof(*tl.series));
	tl.series[0].name = fx_str("rss");
	tl.series[0].n = 100000;
	tl.series[0].times = fx_alloc(sizeof(double) * 100000);
	tl.series[0].values = fx_alloc(sizeof(double) * 100000);
	for (size_t i = 0; i < 100000; i++) {
		tl.series[0].times[i] = (double)i;
		tl.series[0].values[i] = i == 77777 ? 987654321 : i == 33333 ? 3 : 1000;
	}
	page = render(&tl, &len, &rc);
	ok(page && rc == 0 && strstr(page, ",987654321,") && strstr(page, ",3,") &&
	   strstr(page, ",77777,") && strstr(page, ",33333,"),
	   "peaks: spike and dip survive downsampling");
	free(page);
	fx_free(&tl, 0);
}

/* One frame and a stack of frames as the page's arrays (the flame graph's
 * frame table writes frames one by one, the bands and leaks stacks). */
static void test_frames(void)
{
	struct lk_frame_text fr[2] = {
		{.function = "op<</script>>", .file = "a \"b\".c", .line = 7, .module = "m", .offset = 0x1f,
		 .inlined = 1},
		{.function = NULL, .file = NULL, .line = 0, .module = "libc.so.6", .offset = 0x29d90},
	};
	char *one = NULL, *all = NULL;
	size_t n1 = 0, n2 = 0;
	FILE *f = open_memstream(&one, &n1);
	if (f) {
		lk_html_frame_json(f, &fr[0]);
		fclose(f);
	}
	f = open_memstream(&all, &n2);
	if (f) {
		lk_html_frames_json(f, fr, 2);
		fclose(f);
	}
	ok(one && strcmp(one, "[\"op<<\\/script>>\",\"a \\\"b\\\".c\",7,\"m\",\"0x1f\",1]") == 0,
	   "frame: one frame escaped, inlined flag");
	ok(one && json_valid(one), "frame: valid JSON");
	ok(one && all && n2 == n1 + 2 + strlen(",[null,null,0,\"libc.so.6\",\"0x29d90\",0]") &&
	   strncmp(all + 1, one, n1) == 0 && json_valid(all),
	   "frames: the same frame inside the stack array, then the unsymbolized one");
	free(one);
	free(all);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_tricky();
	test_empty();
	test_write_error();
	test_peaks();
	test_frames();
	test_big();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
