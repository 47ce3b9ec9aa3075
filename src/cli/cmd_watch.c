/*
 * cmd_watch.c - `leakscope watch`: follow a trace while it is written
 * (a recording's, or an attached process's) and show, every interval,
 * what it holds so far: in the terminal (watch_text.c) and, with --serve,
 * on a local web page: the HTML report of the history the refresh made
 * (watch_page.c, watch_serve.c, watch_json.c). The trace is followed
 * with the report's analysis (history/follow.h): each refresh reads only
 * what was appended since the last one, and finishes a copy of the state
 * (the growth ranking over the whole trace, as `leakscope report` has
 * it), at a cost that follows the sites and live blocks, not the trace's
 * length (docs/watch.md measures it).
 *
 * Exit status: 0 when the trace ended (its end record) or on SIGINT or
 * SIGTERM; 1 when the trace cannot be read or the output written; 2 usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/watch.h"
#include "common/error.h"
#include "history/follow.h"

enum { OPT_INTERVAL = LK_CLI_LONG, OPT_SERVE };

static const struct lk_cli_opt options[] = {
	{"interval", OPT_INTERVAL, "MS", "refresh every MS milliseconds (default 1000;\n"
	 "at least twice what a refresh takes)"},
	LK_CLI_OPT_TOP("growing sites shown (default 5)"),
	{"serve", OPT_SERVE, "[ADDR:]PORT", "serve the page (the HTML report of the trace so\n"
	 "far, updating itself) at ADDR:PORT (ADDR\n"
	 "127.0.0.1 unless given; PORT 0: any free one),\n"
	 "readable only with the token of the address\n"
	 "printed on start; serves the last page after the\n"
	 "trace ended, until interrupted"},
	LK_CLI_OPT_QUIET,
	LK_CLI_OPT_END,
};

const struct lk_cli_cmd lk_cli_watch = {
	.name = "watch",
	.summary = "follow a running recording live: RSS, live bytes, growing sites",
	.synopsis = "[OPTIONS] PID|TRACE",
	.about =
	"Follow a trace while 'leakscope record' or 'leakscope attach' writes it,\n"
	"and show every second what it holds so far: the program and the time,\n"
	"RSS and live bytes now and at their peak with a chart of their last\n"
	"samples, the sites whose live bytes grow fastest (the ranking of\n"
	"'leakscope report's \"Growing sites\", with their first frame) and the\n"
	"marks and snapshots as they come. On a terminal the screen is redrawn;\n"
	"otherwise each refresh prints a block of lines ending with an empty one,\n"
	"and each mark once. Ends when the trace ends (the recording finished)\n"
	"or on Ctrl-C. A finished trace is shown once. With --serve, a web page\n"
	"shows it too: the HTML report of the trace so far ('leakscope report\n"
	"--format html'), made at each refresh, which updates itself in the\n"
	"browser and keeps the tab, the time window and the options chosen.\n",
	.opts = options,
	.notes =
	"PID is a process that a running recording traces (its trace is asked from\n"
	"the recording's control socket, docs/control.md); TRACE a trace file.\n"
	"\n"
	"exit status: 0 the trace ended, or watch was interrupted; 1 the trace or\n"
	"the recording cannot be read, the page cannot be served, or the output\n"
	"cannot be written; 2 usage error.\n",
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);   /* a signal cuts it short */
}

static int columns(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

struct watch {
	char path[4200];
	int interval;
	struct lk_watch_view view;
	struct lk_watch_server *server;
	off_t last_size;
	int said_waiting;
	FILE *f;                   /* the trace, once its header is there */
	struct lk_hist_follow fw;  /* what was read of it (when f) */
};

/* Start following the trace: 1 done, 0 not there yet (no file, or not
 * even its header), -1 after a message. */
static int open_trace(struct watch *w)
{
	struct lk_hist_options opt = {.from.kind = LK_POINT_START, .to.kind = LK_POINT_END,
				      .cells = w->server != NULL};   /* the page's window analysis */
	FILE *f = fopen(w->path, "rb");
	if (!f && errno == ENOENT)
		return 0;
	if (!f) {
		lk_cli_error("watch: cannot open '%s': %s", w->path, lk_cli_errtext(-errno));
		return -1;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && st.st_size == 0) {   /* made, not written yet */
		fclose(f);
		return 0;
	}
	lk_error_set(0, "%s", "");
	int rc = lk_hist_follow_open(&w->fw, f, &opt);
	if (rc == 0) {
		w->f = f;
		return 1;
	}
	lk_hist_follow_close(&w->fw);
	fclose(f);
	if (rc == LK_ETRUNC)
		return 0;
	const char *d = lk_error_detail();
	lk_cli_error("watch: cannot read '%s': %s", w->path,
		     *d && rc != -ENOMEM ? d : lk_cli_errtext(rc));
	return -1;
}

/* The trace is no longer followed. */
static void stop_following(struct watch *w)
{
	if (!w->f)
		return;
	lk_hist_follow_close(&w->fw);
	fclose(w->f);
	w->f = NULL;
}

/* Whether the path now names another file than the one followed, or the
 * file was emptied and written again (a new recording to the same path):
 * then it is followed from its start again. */
static int replaced(struct watch *w)
{
	struct stat now, was;
	if (stat(w->path, &now) != 0 || fstat(fileno(w->f), &was) != 0)
		return 0;
	return now.st_ino != was.st_ino || now.st_dev != was.st_dev ||
	       (uint64_t)now.st_size < lk_trace_reader_good_offset(w->fw.rd);
}

/* What was appended to the trace since the last refresh read, and h made
 * of everything read so far: 1 done, 0 not there yet, -1 after a message. */
static int load(struct watch *w, struct lk_history *h)
{
	if (w->f && replaced(w))
		stop_following(w);
	int rc = w->f ? 1 : open_trace(w);
	if (rc <= 0)
		return rc;
	lk_error_set(0, "%s", "");
	if ((rc = lk_hist_follow_feed(&w->fw)) == 0) {
		rc = lk_hist_follow_snapshot(&w->fw, h);
		if (rc)
			lk_history_release(h);
	}
	if (rc) {
		const char *d = lk_error_detail();
		lk_cli_error("watch: cannot read '%s': %s", w->path,
			     *d && rc != -ENOMEM ? d : lk_cli_errtext(rc));
		return -1;
	}
	return 1;
}

/* The page of h and the view's JSON, for the server. 0 or 1. */
static int serve(struct watch *w, const struct lk_history *h)
{
	struct lk_watch_page page;
	char *json = NULL;
	size_t len = 0;
	int rc = lk_watch_page_make(h, w->path, &page);
	if (rc) {
		lk_cli_error("watch: cannot make the page: %s", lk_cli_errtext(rc));
		return 1;
	}
	FILE *m = open_memstream(&json, &len);
	int failed = !m || lk_watch_json(m, h, &w->view);
	if ((m && fclose(m)) || failed) {
		free(json);
		lk_watch_page_release(&page);
		lk_cli_error("watch: out of memory");
		return 1;
	}
	lk_watch_server_set(w->server, &page, json, len);
	return 0;
}

/* Show h: text on standard output, the page when served. 0 or 1. */
static int show(struct watch *w, const struct lk_history *h)
{
	int rc = lk_watch_text(stdout, h, &w->view);
	if (rc) {
		lk_cli_error("watch: cannot write 'standard output': %s", lk_cli_errtext(rc));
		return 1;
	}
	return w->server ? serve(w, h) : 0;
}

/* Whether a trace that has not grown since the last refresh was left
 * without its end: no recording writes it any more. */
static int abandoned(struct watch *w)
{
	struct stat st;
	if (stat(w->path, &st) != 0)
		return 0;
	int same = st.st_size == w->last_size;
	w->last_size = st.st_size;
	return same && !lk_watch_recording(w->path);
}

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Until the next refresh: the rest of the interval, but at least twice
 * what the refresh took (`took` ms), so that a refresh takes at most a
 * third of a core (one of a large heap: many sites and live blocks). */
static void wait_next(struct watch *w, long took)
{
	long ms = w->interval - took;
	if (ms < 2 * took)
		ms = 2 * took;
	if (w->server)
		lk_watch_server_wait(w->server, (int)ms);
	else
		sleep_ms((int)ms);
}

static int follow(struct watch *w)
{
	for (;;) {
		struct lk_history h;
		long start = now_ms();
		int rc = load(w, &h);
		if (rc < 0)
			return 1;
		if (rc == 0 && !w->said_waiting) {
			lk_cli_note("watch: waiting for '%s'", w->path);
			w->said_waiting = 1;
		}
		if (rc > 0) {
			w->view.ended = !h.truncated;
			w->view.width = w->view.terminal ? columns() : 80;
			rc = show(w, &h);
			lk_history_release(&h);
			if (rc)
				return rc;
			if (w->view.ended)
				break;
			if (abandoned(w)) {
				lk_cli_error("watch: warning: '%s' has no end and no recording writes "
					     "it any more", w->path);
				break;
			}
		}
		if (interrupted)
			return 0;
		wait_next(w, now_ms() - start);
		if (interrupted)
			return 0;
	}
	while (w->server && !interrupted)
		lk_watch_server_wait(w->server, 1000);
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	struct watch w = {.interval = 1000, .view = {.top = 5}, .last_size = -1};
	const char *spec = NULL;
	struct lk_cli_parser p;
	long n;
	int c;

	lk_cli_parse_init(&p, &lk_cli_watch, argc, argv);
	while ((c = lk_cli_next(&p)) > 0) {
		switch (c) {
		case OPT_INTERVAL:
			if ((n = lk_cli_number(&p, 10, 3600000)) < 0)
				return p.status;
			w.interval = (int)n;
			break;
		case LK_CLI_TOP:
			if ((n = lk_cli_number(&p, 1, 1000)) < 0)
				return p.status;
			w.view.top = (int)n;
			break;
		case OPT_SERVE: spec = p.value; break;
		}
	}
	if (c == LK_CLI_STOP)
		return p.status;
	if (p.n_args == 0)
		return lk_cli_usage_error("watch", "no pid or trace given");
	if (p.n_args > 1)
		return lk_cli_usage_error("watch", "one pid or trace at a time, not '%s'", p.args[1]);
	if (lk_watch_target(p.args[0], w.path, sizeof(w.path)))
		return 1;
	w.view.trace = w.path;
	w.view.terminal = isatty(STDOUT_FILENO);
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	int status;
	if (spec && (status = lk_watch_serve(spec, &w.server)))
		return status;
	if (spec) {
		/* said even with -q: the page cannot be read without it */
		fprintf(stderr, "leakscope: watch: serving %s\n", lk_watch_server_url(w.server));
	}
	status = follow(&w);
	stop_following(&w);
	if (w.server)
		lk_watch_server_close(w.server);
	return status;
}
