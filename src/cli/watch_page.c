/*
 * watch_page.c - the page of `leakscope watch --serve` for one refresh:
 * the HTML report of the trace so far (`leakscope report --format html`,
 * built-in suppressions, docs/html-report.md) made from the history the
 * refresh read, with live.js, which keeps it up to date; and where the
 * report's data (the JSON of its #data element) lies in it, which the
 * server answers alone at /data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/suppressions_load.h"
#include "cli/watch.h"
#include "history/verdicts.h"
#include "report/trace/history_report.h"

/* How html.c opens the data; the JSON in it never holds "</" (report/json.c). */
static const char data_open[] = "<script type=\"application/json\" id=\"data\">";

static int write_html(FILE *out, const struct lk_history *h, const char *trace)
{
	struct lk_suppressions sup;
	struct lk_leak_report leaks = {0};
	struct lk_history_view view = {.trace = trace, .top = 10, .script = "live.js"};
	int rc = 0;
	lk_suppressions_init(&sup);
	if (lk_cli_load_suppressions(&sup, 1, NULL, 0))
		rc = -ENOMEM;
	else if (lk_history_verdicts_apply(h) && (rc = lk_history_leaks(h, &sup, 1, &leaks)) == 0)
		view.leaks = &leaks;
	if (!rc)
		rc = lk_history_write_html(h, &view, out);
	lk_leak_report_release(&leaks);
	lk_suppressions_release(&sup);
	return rc;
}

/* Find the data in p->html. 0 or -EINVAL. */
static int find_data(struct lk_watch_page *p)
{
	const char *start = memmem(p->html, p->len, data_open, sizeof(data_open) - 1);
	if (!start)
		return -EINVAL;
	start += sizeof(data_open) - 1;
	const char *end = memmem(start, p->len - (size_t)(start - p->html), "</script>", 9);
	if (!end)
		return -EINVAL;
	p->data = (size_t)(start - p->html);
	p->data_len = (size_t)(end - start);
	return 0;
}

int lk_watch_page_make(const struct lk_history *h, const char *trace, struct lk_watch_page *p)
{
	memset(p, 0, sizeof(*p));
	FILE *m = open_memstream(&p->html, &p->len);
	if (!m)
		return -ENOMEM;
	int rc = write_html(m, h, trace);
	if (fclose(m) && !rc)
		rc = -ENOMEM;
	if (!rc)
		rc = find_data(p);
	if (rc)
		lk_watch_page_release(p);
	return rc;
}

void lk_watch_page_release(struct lk_watch_page *p)
{
	free(p->html);
	memset(p, 0, sizeof(*p));
}
