/* check.c - scan a running process now and resume it (see check.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/leaks.h"
#include "collector/scan.h"
#include "collector/stopall.h"
#include "collector/threadregs.h"
#include "common/error.h"
#include "control/check.h"
#include "report/leak/leak_report.h"

int lk_check_scan_stopped(struct lk_session *s, struct lk_stopall *st)
{
	struct user_regs_struct *regs = calloc(st->n + 1, sizeof(*regs));
	if (!regs)
		return -ENOMEM;
	struct lk_exit_snapshot snap = {.tgid = s->pid, .tid = s->pid, .maps_fd = -1,
					 .threads = regs};
	int have_main = 0;
	for (size_t i = 0; i < st->n; i++) {
		if (st->t[i].gone)
			continue;
		lk_vector_reg_words(st->t[i].tid, &st->t[i].regs, &snap.vector_words,
				    &snap.n_vector_words);
		if (st->t[i].tid == s->pid) {
			snap.regs = st->t[i].regs;
			have_main = 1;
		} else {
			regs[snap.n_threads++] = st->t[i].regs;
		}
	}
	if (!have_main && snap.n_threads) /* the main thread ended before the others */
		snap.regs = regs[--snap.n_threads];
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)s->pid);
	snap.mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = snap.mem_fd < 0 ? lk_error_set(-errno, "cannot read the memory of pid %d: %s",
						(int)s->pid, strerror(errno))
				 : lk_scan_session(s, &snap);
	if (snap.mem_fd >= 0)
		close(snap.mem_fd);
	free(regs);
	free(snap.vector_words);
	return rc;
}

struct waits {
	struct lk_wait *w;
	size_t n;
};

/* Keep the statuses the stop took, for the host, after every report. */
static void keep(struct waits *ws, const struct lk_stopall *st)
{
	if (!st->n_kept)
		return;
	struct lk_wait *a = realloc(ws->w, (ws->n + st->n_kept) * sizeof(*a));
	if (!a)
		return; /* cannot happen in practice; the host then misses them */
	memcpy(a + ws->n, st->kept, st->n_kept * sizeof(*a));
	ws->w = a;
	ws->n += st->n_kept;
}

/* Stop, drain, scan, resume, then group the verdicts into *rep. */
static int check_one(const struct lk_check *k, struct lk_session *s,
		     struct lk_symbolizer *sym, int why, struct lk_leak_report *rep,
		     struct waits *ws)
{
	int wanted = s->want_why;
	s->want_why = why;
	struct lk_stopall st;
	int rc = lk_stopall_stop(&st, s->pid, LK_CHECK_STOP_MS);
	if (rc == 0) {
		lk_session_drain(s, 0);
		rc = lk_check_scan_stopped(s, &st);
		if (rc && !*lk_error_detail())
			lk_error_set(rc, "the scan of pid %d failed: %s", (int)s->pid,
				     lk_error_name(rc));
	}
	lk_stopall_resume(&st);
	keep(ws, &st);
	lk_stopall_release(&st);
	if (rc == 0)
		rc = lk_leaks_collect(s, sym, k->sup, s->pid == k->collector->root && !s->forked,
				      why, why, rep);
	s->want_why = wanted;
	lk_why_free(s->why); /* the exit report makes its own */
	s->why = NULL;
	/* the verdicts hold for this moment only: the exit report makes its own */
	free(s->classes);
	free(s->leaders);
	s->classes = NULL;
	s->leaders = NULL;
	return rc;
}

struct lk_leak_text_opts lk_check_text_opts(const struct lk_control_request *req)
{
	return (struct lk_leak_text_opts){
		.top = req->top_given ? (size_t)req->top : LK_LEAK_TEXT_TOP,
		.show_reachable = req->why,
		.style = {.full_stacks = req->full, .color = req->color},
	};
}

int lk_check_run(const struct lk_check *k, const struct lk_control_request *req, FILE *out)
{
	pid_t pid = req->pid;
	int why = req->why;
	struct lk_collector *c = k->collector;
	struct lk_symbolizer *sym;
	lk_error_set(0, "%s", "");
	if (lk_symbolizer_new(&sym) != 0)
		return -ENOMEM;
	/* the session list may change under the replays: take the pids first */
	size_t n = 0;
	pid_t *pids = calloc(c->n_running + 1, sizeof(*pids));
	struct lk_leak_report *reps = calloc(c->n_running + 1, sizeof(*reps));
	int rc = pids && reps ? 0 : -ENOMEM;
	for (size_t i = 0; !rc && i < c->n_running; i++)
		if (!pid || c->running[i]->pid == pid)
			pids[n++] = c->running[i]->pid;
	if (!rc && n == 0)
		rc = lk_error_set(LK_ENOTFOUND, "pid %d is not a running process of this recording",
				  (int)pid);
	size_t done = 0;
	struct waits ws = {0};
	for (size_t i = 0; !rc && i < n; i++) {
		struct lk_session *s = lk_collector_find(c, pids[i]);
		if (s && (rc = check_one(k, s, sym, why, &reps[done], &ws)) == 0)
			done++;
	}
	if (!rc) {
		struct lk_run_result r = {.reports = reps, .n_reports = done,
					  .text = lk_check_text_opts(req)};
		if (req->json)
			lk_leak_write_json(&r, out);
		else
			lk_leak_write_text(&r, out);
	}
	for (size_t i = 0; reps && i < done; i++)
		lk_leak_report_release(&reps[i]);
	/* sessions may end here: nothing of them is used after */
	for (size_t i = 0; k->replay && i < ws.n; i++)
		k->replay(k->ctx, ws.w[i].tid, ws.w[i].status);
	free(ws.w);
	free(reps);
	free(pids);
	lk_symbolizer_free(sym);
	return rc;
}
