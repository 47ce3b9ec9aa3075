/*
 * timeline_pages.c - several timelines (eventlogs) as one offline page, a
 * tab each, as eventlog2html does with several files: each timeline's own
 * page (report/html.c) in the srcdoc of an iframe, the tabs named by the
 * files' names. Nothing is loaded from anywhere: the frames' documents are in the
 * page, under the page's own Content-Security-Policy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/timeline/timeline_report.h"

/* The file name of a path. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* s as the text of an HTML attribute or element. */
static void put_escaped(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		default: putc(s[i], out);
		}
	}
}

static const char script[] =
	"(function () {\n"
	"  var tabs = document.querySelectorAll('nav.files button');\n"
	"  var pages = document.querySelectorAll('iframe.page');\n"
	"  function show(k) {\n"
	"    for (var i = 0; i < pages.length; i++) {\n"
	"      pages[i].hidden = i !== k;\n"
	"      tabs[i].setAttribute('aria-selected', i === k ? 'true' : 'false');\n"
	"    }\n"
	"  }\n"
	"  tabs.forEach(function (b, k) {\n"
	"    b.addEventListener('click', function () { show(k); history.replaceState(null, '', '#file-' + k); });\n"
	"  });\n"
	"  var m = /^#file-(\\d+)$/.exec(location.hash);\n"
	"  show(m && +m[1] < pages.length ? +m[1] : 0);\n"
	"  document.body.setAttribute('data-ready', '1');\n"
	"})();\n";

static const char style[] =
	"body{margin:0;font:14px system-ui,sans-serif;display:flex;flex-direction:column;height:100vh}"
	"nav.files{display:flex;gap:4px;padding:6px 12px 0;border-bottom:1px solid #d0d7de;background:#f6f8fa}"
	"nav.files button{font:inherit;padding:6px 12px;border:1px solid #d0d7de;border-bottom:none;"
	"background:#eaeef2;border-radius:6px 6px 0 0;cursor:pointer}"
	"nav.files button[aria-selected=true]{background:#fff;font-weight:600}"
	"iframe.page{flex:1;border:0;width:100%}";

/* The page of tl, written to a memory buffer, into an iframe. */
static int write_frame(FILE *out, const struct lk_timeline *tl, const struct lk_html_extra *x,
		       size_t k, const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	int rc = x ? lk_timeline_write_html_extra(tl, x, m) : lk_timeline_write_html(tl, m);
	if (fclose(m) != 0 && !rc)
		rc = -ENOMEM;
	if (!rc) {
		fprintf(out, "<iframe class=\"page\" id=\"file-%zu\" title=\"", k);
		put_escaped(out, base_name(name), strlen(base_name(name)));
		fputs("\" srcdoc=\"", out);
		put_escaped(out, buf, len);
		fputs("\"></iframe>\n", out);
	}
	free(buf);
	return rc;
}

int lk_timeline_write_html_pages(const struct lk_timeline *tls, const char *const *names, size_t n,
				 const struct lk_html_extra *x, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"generator\" content=\"leakscope\">\n<title>leakscope: ", out);
	fprintf(out, "%zu heap profiles</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<nav class=\"files\" role=\"tablist\">", n, style);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<button type=\"button\" role=\"tab\" data-file=\"%zu\">", i);
		put_escaped(out, base_name(names[i]), strlen(base_name(names[i])));
		fputs("</button>", out);
	}
	fputs("</nav>\n", out);
	for (size_t i = 0; i < n; i++) {
		int rc = write_frame(out, &tls[i], x, i, names[i]);
		if (rc)
			return rc;
	}
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", script);
	return ferror(out) ? -EIO : 0;
}
