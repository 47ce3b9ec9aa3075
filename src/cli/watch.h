/*
 * watch.h - what the files of `leakscope watch` share: finding the trace
 * of a target (watch_target.c), one view of a trace read so far, drawn as
 * text for a terminal or a log (watch_text.c) and as JSON for the page's
 * header (watch_json.c), the page itself: the HTML report of the trace so
 * far, updating itself (watch_page.c, the asset live.js), and its small
 * HTTP server (watch_serve.c).
 */
#ifndef LK_CLI_WATCH_H
#define LK_CLI_WATCH_H

#include <stddef.h>
#include <stdio.h>

#include "history/history.h"

/* What a view shows besides the history. */
struct lk_watch_view {
	const char *trace;    /* the trace's path */
	int top;              /* growing sites shown */
	int ended;            /* the trace has its end record */
	int width;            /* columns of the text view */
	int terminal;         /* redraw the screen (else one block a refresh) */
	size_t marks_shown;   /* plain text: marks already printed */
};

/* The trace file of target: a path to a trace (kept as it is), or the pid
 * of a process a running recording traces (its trace, asked from the
 * recording's control socket). 0 with path filled, or 1 after a message. */
int lk_watch_target(const char *target, char *path, size_t size);

/* Whether a running recording still writes path (its control socket
 * answers). */
int lk_watch_recording(const char *path);

/* One refresh of the text view: the screen (terminal) or a block of
 * lines. 0 or a negative code (-EIO, -ENOMEM). */
int lk_watch_text(FILE *out, const struct lk_history *h, struct lk_watch_view *v);

/* The view as one JSON object (docs/watch.md). 0 or a negative code. */
int lk_watch_json(FILE *out, const struct lk_history *h, const struct lk_watch_view *v);

/* The page of one refresh: the HTML report of the trace so far, which
 * updates itself (live.js), and where its data lies in it. */
struct lk_watch_page {
	char *html;           /* malloc'ed, len bytes */
	size_t len;
	size_t data, data_len;  /* the JSON of its #data: html[data, data + data_len) */
};

/* The page of h, a history read with cells (history/cells.h), of the trace
 * at path trace (`leakscope report --format html` of it, built-in
 * suppressions, plus live.js). 0 or a negative code; *p is empty then. */
int lk_watch_page_make(const struct lk_history *h, const char *trace, struct lk_watch_page *p);
void lk_watch_page_release(struct lk_watch_page *p);

/* The page's server: listening on addr:port with a random token. */
struct lk_watch_server;

/* Listen on spec "[ADDR:]PORT" (ADDR 127.0.0.1 when not given; one not
 * on the loopback only when given). 0, or the exit status after a
 * message: 2 for a spec that is not one, 1 when it cannot listen. */
int lk_watch_serve(const char *spec, struct lk_watch_server **out);
/* The page's address with its token ("http://ADDR:PORT/?token=T"). */
const char *lk_watch_server_url(const struct lk_watch_server *s);
/* What the page reads from now on, one refresh's (taken: the server frees
 * them): the page (the report and its data) and the view's JSON object
 * (its header). A new generation: the page draws again. */
void lk_watch_server_set(struct lk_watch_server *s, struct lk_watch_page *page, char *json,
			 size_t len);
/* Answer requests until ms milliseconds have passed (or a signal came). */
void lk_watch_server_wait(struct lk_watch_server *s, int ms);
void lk_watch_server_close(struct lk_watch_server *s);

#endif
