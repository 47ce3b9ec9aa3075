/*
 * recorder.c - a recording (recorder.h): the set of its traces, their file
 * names, the session sink that feeds them, and the control API (marks,
 * snapshots, the window, the list). One trace's encoding is rtrace.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/files.h"
#include "record/recorder.h"
#include "record/rtrace.h"

#define SUFFIX ".lstrace"
#define NAME_TRIES 100   /* FILE, FILE-2 ... FILE-100 */

struct lk_recorder {
	char *path;                  /* the root's trace (the name it got) */
	int path_named;              /* path is the user's (-o), not made up */
	pid_t root;
	int root_named;              /* the root's first image has its trace */
	struct lk_rtrace_config cfg;
	struct lk_symbolizer *sym;
	struct lk_rtrace **traces;   /* every trace, running or closed */
	size_t n, cap;
};

int lk_recorder_new(const struct lk_recorder_options *o, struct lk_recorder **out)
{
	*out = NULL;
	struct lk_recorder *rec = calloc(1, sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	rec->path = strdup(o->path);
	rec->path_named = o->named;
	rec->root = o->root;
	rec->cfg = (struct lk_rtrace_config){
		.period_ms = o->period_ms ? o->period_ms : 5,
		.sample_ms = o->sample_ms ? o->sample_ms : 100,
		.flush_ms = o->flush_ms ? o->flush_ms : 1000,
		.window = !o->paused, .level = o->level,
	};
	if (!rec->path || lk_symbolizer_new(&rec->sym) != 0) {
		lk_recorder_free(rec);
		return -ENOMEM;
	}
	*out = rec;
	return 0;
}

void lk_recorder_free(struct lk_recorder *rec)
{
	if (!rec)
		return;
	for (size_t i = 0; i < rec->n; i++) {
		struct lk_rtrace *t = rec->traces[i];
		if (t->s)
			lk_session_detach(t->s);   /* closes it through the sink */
		lk_rtrace_free(t);
	}
	free(rec->traces);
	lk_symbolizer_free(rec->sym);
	free(rec->path);
	free(rec);
}

/* ---- the session sink --------------------------------------------------- */

static void sink_begin(void *data, struct lk_session *s)
{
	lk_rtrace_clock(data, lk_rtrace_mono_ns());
}

static void sink_event(void *data, struct lk_session *s, const struct lk_session_event *ev)
{
	lk_rtrace_event(data, ev);
}

static void sink_end(void *data, struct lk_session *s)
{
	struct lk_rtrace *t = data;
	struct lk_recorder *rec = t->owner;
	lk_rtrace_clock(t, lk_rtrace_mono_ns());
	lk_rtrace_close(t, rec->sym);
}

static const struct lk_session_sink sink = {
	.begin = sink_begin, .event = sink_event, .end = sink_end,
};

/* ---- file names --------------------------------------------------------- */

/* rec->path with ".PID" (and ".N" for N >= 2) before the suffix. */
static char *other_path(const struct lk_recorder *rec, pid_t pid)
{
	unsigned n = 1;
	for (size_t i = 0; i < rec->n; i++)
		if (rec->traces[i]->pid == pid && strcmp(rec->traces[i]->path, rec->path))
			n++;
	size_t len = strlen(rec->path), sl = strlen(SUFFIX);
	int has = len > sl && !strcmp(rec->path + len - sl, SUFFIX);
	size_t stem = has ? len - sl : len;
	char seq[16] = "";
	if (n > 1)
		snprintf(seq, sizeof(seq), ".%u", n);
	char *p = NULL;
	if (asprintf(&p, "%.*s.%d%s%s", (int)stem, rec->path, (int)pid, seq, has ? SUFFIX : "") < 0)
		return NULL;
	return p;
}

/* path with "-N" before the suffix (appended when there is none). */
static char *numbered_path(const char *path, unsigned n)
{
	size_t len = strlen(path), sl = strlen(SUFFIX);
	int has = len > sl && !strcmp(path + len - sl, SUFFIX);
	char *p = NULL;
	if (asprintf(&p, "%.*s-%u%s", (int)(has ? len - sl : len), path, n, has ? SUFFIX : "") < 0)
		return NULL;
	return p;
}

/* Create the file of a trace, mode 0600: the name the user gave (an own
 * file there is emptied), or a name made up here (the default, and every
 * ".PID" name), which is created new and never reused - when it is taken
 * (an older trace, or a link someone put there), the first free of
 * NAME-2, NAME-3 ... is. The descriptor, the name in *got; or a negative
 * code with the detail set. */
static int create_trace(const char *path, int named, char **got)
{
	if (named) {
		int fd = lk_file_open_write(path, LK_FILE_TRUNC, 0600);
		if (fd < 0)
			return lk_error_set(fd, "cannot create '%s'", path);
		if (!(*got = strdup(path))) {
			close(fd);
			return -ENOMEM;
		}
		return fd;
	}
	for (unsigned n = 1; n <= NAME_TRIES; n++) {
		char *p = n == 1 ? strdup(path) : numbered_path(path, n);
		if (!p)
			return -ENOMEM;
		int fd = lk_file_open_write(p, LK_FILE_NEW, 0600);
		if (fd >= 0) {
			*got = p;
			return fd;
		}
		free(p);
		if (fd != -EEXIST)
			return lk_error_set(fd, "cannot create '%s'", path);
	}
	return lk_error_set(-EEXIST, "cannot create '%s' (nor the next %u names)", path,
			    NAME_TRIES - 1);
}

/* The symbols of the modules the process has loaded, read before its
 * trace's clock starts and while it waits for our answer to its hello:
 * read later, on the first stacks, they would hold the recorder up for a
 * tenth of a second, while the events of the start piled up and took the
 * time of the next drain. */
static void warm_symbols(struct lk_recorder *rec, struct lk_session *s)
{
	if (lk_shmview_sync_modules(&s->view) != 0)
		return;
	for (uint32_t i = 0; i < s->view.n_mods; i++) {
		const char *path = s->view.mods[i].path;
		lk_symbolizer_warm(rec->sym, path && *path ? path : s->exe);
	}
}

int lk_recorder_attach(struct lk_recorder *rec, struct lk_session *s)
{
	warm_symbols(rec, s);
	int is_root = s->pid == rec->root && !s->forked && !rec->root_named;
	char *want = is_root ? strdup(rec->path) : other_path(rec, s->pid);
	if (!want)
		return -ENOMEM;
	if (rec->n == rec->cap) {
		size_t cap = rec->cap ? rec->cap * 2 : 8;
		struct lk_rtrace **n = realloc(rec->traces, cap * sizeof(*n));
		if (!n) {
			free(want);
			return -ENOMEM;
		}
		rec->traces = n;
		rec->cap = cap;
	}
	char *path = NULL;
	int fd = create_trace(want, is_root && rec->path_named, &path);
	free(want);
	if (fd < 0)
		return fd;
	struct lk_rtrace *t;
	int rc = lk_rtrace_open(&t, s, path, fd, &rec->cfg);
	if (rc) {
		free(path);
		return rc;
	}
	if (is_root) {
		/* the other traces are named after the name the root's got */
		free(rec->path);
		rec->path = path;
		rec->root_named = 1;
	} else {
		free(path);
	}
	t->owner = rec;
	rec->traces[rec->n++] = t;
	s->sink = &sink;
	s->sink_data = t;
	return 0;
}

int lk_recorder_tick(struct lk_recorder *rec, uint32_t budget_ms)
{
	uint64_t now = lk_rtrace_mono_ns();
	uint64_t deadline = now + (uint64_t)budget_ms * 1000000u;
	int more = 0;
	for (size_t i = 0; i < rec->n; i++)
		more |= lk_rtrace_tick(rec->traces[i], rec->sym, now, deadline);
	return more;
}

/* ---- control ------------------------------------------------------------ */

static int mark_all(struct lk_recorder *rec, const char *text, int snapshot)
{
	uint64_t now = lk_rtrace_mono_ns();
	for (size_t i = 0; i < rec->n; i++) {
		struct lk_rtrace *t = rec->traces[i];
		if (!t->s)
			continue;
		lk_rtrace_clock(t, now);
		lk_rtrace_mark(t, 0, text, snapshot);
	}
	return 0;
}

int lk_recorder_mark(struct lk_recorder *rec, const char *text)
{
	return mark_all(rec, text, 0);
}

int lk_recorder_snapshot(struct lk_recorder *rec, const char *name)
{
	return mark_all(rec, name, 1);
}

static int mark_one(struct lk_session *s, uint32_t tid, const char *text, int snapshot)
{
	if (s->sink != &sink)
		return 0;
	lk_rtrace_mark(s->sink_data, tid, text, snapshot);
	return 0;
}

int lk_recorder_mark_session(struct lk_recorder *rec, struct lk_session *s, uint32_t tid,
			     const char *text)
{
	return mark_one(s, tid, text, 0);
}

int lk_recorder_snapshot_session(struct lk_recorder *rec, struct lk_session *s, uint32_t tid,
				 const char *name)
{
	return mark_one(s, tid, name, 1);
}

void lk_recorder_set_window(struct lk_recorder *rec, int on)
{
	rec->cfg.window = on != 0;
	for (size_t i = 0; i < rec->n; i++)
		rec->traces[i]->window = on != 0;
}

int lk_recorder_window(const struct lk_recorder *rec)
{
	return rec->cfg.window;
}

size_t lk_recorder_count(const struct lk_recorder *rec)
{
	return rec->n;
}

int lk_recorder_take_failure(struct lk_recorder *rec, struct lk_recorder_info *out)
{
	for (size_t i = 0; i < rec->n; i++) {
		struct lk_rtrace *t = rec->traces[i];
		if (t->err && !t->err_taken) {
			t->err_taken = 1;
			return lk_recorder_info(rec, i, out);
		}
	}
	return LK_ENOTFOUND;
}

int lk_recorder_info(const struct lk_recorder *rec, size_t i, struct lk_recorder_info *out)
{
	if (i >= rec->n)
		return LK_ENOTFOUND;
	const struct lk_rtrace *t = rec->traces[i];
	*out = (struct lk_recorder_info){
		.path = t->path, .pid = t->pid, .comm = t->comm, .running = t->s != NULL && t->w,
		.events = t->events, .allocs = t->allocs, .frees = t->frees, .symbols = t->symbols,
		.seconds = (double)t->t_last * 1e-6,
		.bytes = t->w ? lk_trace_writer_offset(t->w) : t->bytes,
		.err = t->err, .errmsg = t->err ? t->errmsg : NULL,
		.region_note = t->region_note,
	};
	return 0;
}
