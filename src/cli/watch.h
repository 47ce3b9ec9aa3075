/*
 * watch.h - what the files of `leakscope watch` share: finding the trace
 * of a target (watch_target.c), one view of a trace read so far, drawn as
 * text for a terminal or a log (watch_text.c) and as JSON for the page
 * (watch_json.c), and the page's small HTTP server (watch_serve.c) with
 * the HTML report it links to (watch_report.c).
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

/* The HTML report of the trace at path so far (`leakscope report --format
 * html`, built-in suppressions) into *html (malloc'ed, *len bytes). 0 or
 * a negative code. */
int lk_watch_report(const char *path, char **html, size_t *len);

/* The page's server: listening on addr:port with a random token. */
struct lk_watch_server;

/* Listen on spec "[ADDR:]PORT" for the trace at path trace (kept: the
 * caller's; ADDR 127.0.0.1 when not given; one not
 * on the loopback only when given). 0, or the exit status after a
 * message: 2 for a spec that is not one, 1 when it cannot listen. */
int lk_watch_serve(const char *spec, const char *trace, struct lk_watch_server **out);
/* The page's address with its token ("http://ADDR:PORT/?token=T"). */
const char *lk_watch_server_url(const struct lk_watch_server *s);
/* The JSON the page reads from now on (taken: the server frees it). */
void lk_watch_server_set(struct lk_watch_server *s, char *json, size_t len);
/* Answer requests until ms milliseconds have passed (or a signal came). */
void lk_watch_server_wait(struct lk_watch_server *s, int ms);
void lk_watch_server_close(struct lk_watch_server *s);

#endif
