/*
 * watch_report.c - the HTML report of a trace so far, for the page of
 * `leakscope watch --serve` (its "report" address): what `leakscope report
 * --format html` writes, with the built-in suppressions, made when it is
 * asked for (the trace read once more).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/suppressions_load.h"
#include "cli/watch.h"
#include "common/error.h"
#include "history/verdicts.h"
#include "report/trace/history_report.h"

static int write_html(FILE *out, struct lk_history *h, const char *path)
{
	struct lk_suppressions sup;
	struct lk_leak_report leaks = {0};
	struct lk_history_view view = {.trace = path, .top = 10};
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

int lk_watch_report(const char *path, char **html, size_t *len)
{
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END,
				      .cells = 1};
	struct lk_history h;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -errno;
	int rc = lk_history_read(f, &opt, &h);
	fclose(f);
	*html = NULL;
	FILE *m = rc ? NULL : open_memstream(html, len);
	if (!rc && !m)
		rc = -ENOMEM;
	if (!rc)
		rc = write_html(m, &h, path);
	if (m && fclose(m) && !rc)
		rc = -ENOMEM;
	lk_history_release(&h);
	if (rc) {
		free(*html);
		*html = NULL;
	}
	return rc;
}
