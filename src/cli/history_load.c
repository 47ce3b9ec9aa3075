/* history_load.c - reading traces for report and diff (see history_load.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/history_load.h"
#include "common/error.h"

struct progress {
	FILE *f;
	const char *path;
	double size;
	int shown;          /* last percent printed, -1 none */
};

static void show_progress(void *arg)
{
	struct progress *p = arg;
	long off = ftell(p->f);
	int pct = p->size > 0 && off >= 0 ? (int)(100.0 * (double)off / p->size) : 0;
	if (pct > 100)
		pct = 100;
	if (pct != p->shown) {
		fprintf(stderr, "\rleakscope: reading '%s': %d%%", p->path, pct);
		p->shown = pct;
	}
}

int lk_cli_load_history(const char *path, const struct lk_hist_options *opt,
			struct lk_history *h)
{
	/* regular files only: a report reads parts of the trace again */
	FILE *f = lk_cli_open_in(path, 0);
	if (!f) {
		memset(h, 0, sizeof(*h));
		return 1;
	}
	struct stat st;
	struct progress p = {.f = f, .path = path, .shown = -1,
			     .size = fstat(fileno(f), &st) == 0 ? (double)st.st_size : 0};
	struct lk_hist_options o = *opt;
	if (isatty(STDERR_FILENO) && !lk_cli_quiet) {
		o.progress = show_progress;
		o.progress_arg = &p;
	}
	lk_error_set(0, "%s", "");
	int rc = lk_history_read(f, &o, h);
	if (p.shown >= 0)
		fputs("\r\033[K", stderr);
	lk_cli_close_in(f, path);
	if (rc) {
		const char *detail = lk_error_detail();
		lk_cli_error("cannot report on '%s': %s", path,
			     *detail && rc != -ENOMEM ? detail : lk_cli_errtext(rc));
		lk_history_release(h);
		return 1;
	}
	for (size_t i = 0; i < h->n_warnings; i++)
		lk_cli_error("warning: '%s': %s; reporting what was read before", path, h->warnings[i]);
	return 0;
}

int lk_cli_parse_size(const char *s, uint64_t *min, uint64_t *max)
{
	char *end;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	unsigned long long a = strtoull(s, &end, 10), b = a;
	if (*end == '-') {
		const char *q = end + 1;
		if (!*q || *q == '-')
			return -1;
		b = strtoull(q, &end, 10);
	}
	if (*end || errno || a > b || b == 0)
		return -1;
	*min = a;
	*max = b;
	return 0;
}
