/* stopall.c - stop and resume every thread of a process (see stopall.h). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>

#include "collector/stopall.h"
#include "common/array.h"
#include "common/error.h"

#define ROUNDS_MAX 1000 /* a process spawning threads faster than we stop them */

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct lk_stopped *find(struct lk_stopall *st, pid_t tid)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->t[i].tid == tid)
			return &st->t[i];
	return NULL;
}

static int keep_status(struct lk_stopall *st, pid_t tid, int status)
{
	if (lk_array_grow(&st->kept, &st->cap_kept, st->n_kept + 1, sizeof(*st->kept), 32))
		return -ENOMEM;
	st->kept[st->n_kept++] = (struct lk_wait){.tid = tid, .status = status};
	return 0;
}

/* Attach (or reuse our attachment) and ask tid to stop. 1: asked, 0: the
 * thread is gone, < 0: not allowed. */
static int interrupt(struct lk_stopall *st, pid_t tid)
{
	int seized = ptrace(PTRACE_SEIZE, tid, 0, 0) == 0;
	int seize_errno = errno;
	if (!seized && seize_errno == ESRCH)
		return 0;
	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0) {
		if (seized || errno != ESRCH)
			return 0; /* ended between the two calls */
		/* not our tracee: the SEIZE error says why */
		return lk_error_set(-seize_errno, "cannot stop thread %d of pid %d: %s", (int)tid,
				    (int)st->tgid, strerror(seize_errno));
	}
	if (lk_array_grow(&st->t, &st->cap, st->n + 1, sizeof(*st->t), 32))
		return -ENOMEM;
	st->t[st->n++] = (struct lk_stopped){.tid = tid, .seized = seized};
	return 1;
}

/* Interrupt every thread of /proc/PID/task not seen yet; returns how many. */
static int round_of_interrupts(struct lk_stopall *st)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)st->tgid);
	DIR *d = opendir(path);
	if (!d)
		return lk_error_set(-errno, "cannot list the threads of pid %d: %s", (int)st->tgid,
				    strerror(errno));
	int fresh = 0, rc = 0;
	struct dirent *e;
	while (rc >= 0 && (e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid <= 0 || find(st, tid))
			continue;
		rc = interrupt(st, tid);
		fresh += rc > 0;
	}
	closedir(d);
	return rc < 0 ? rc : fresh;
}

/* What one wait status of t means; 1 when t is now stopped. */
static int handle(struct lk_stopall *st, struct lk_stopped *t, int status)
{
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		t->gone = 1;
		keep_status(st, t->tid, status);
		return 0;
	}
	if (!WIFSTOPPED(status))
		return 0;
	int sig = WSTOPSIG(status), event = status >> 16;
	if (event == PTRACE_EVENT_STOP &&
	    (t->seized || !(sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)))
		return 1; /* our interrupt (or, for one of ours, a group stop) */
	if (event == 0 && t->seized) {
		t->sig = sig; /* a signal-delivery stop: deliver it when we let go */
		return 1;
	}
	/* an event of a process we already trace: its handling is the caller's */
	t->kept = 1;
	keep_status(st, t->tid, status);
	return 1;
}

/* Wait until every thread asked to stop did; -ETIMEDOUT at the deadline. */
static int wait_stopped(struct lk_stopall *st, size_t from, long long deadline)
{
	for (size_t i = from; i < st->n; i++) {
		struct lk_stopped *t = &st->t[i];
		for (;;) {
			int status;
			pid_t r = waitpid(t->tid, &status, __WALL | WNOHANG);
			if (r < 0) {
				t->gone = 1; /* reaped already, or no longer ours */
				break;
			}
			if (r > 0 && (handle(st, t, status) || t->gone))
				break;
			if (r == 0 && now_ms() > deadline)
				return lk_error_set(-ETIMEDOUT, "thread %d of pid %d did not stop "
						    "(in uninterruptible sleep?)", (int)t->tid,
						    (int)st->tgid);
			if (r == 0)
				nanosleep(&(struct timespec){0, 200 * 1000}, NULL);
		}
	}
	return 0;
}

int lk_stopall_stop(struct lk_stopall *st, pid_t tgid, int timeout_ms)
{
	memset(st, 0, sizeof(*st));
	st->tgid = tgid;
	long long deadline = now_ms() + timeout_ms;
	for (int round = 0; round < ROUNDS_MAX; round++) {
		size_t from = st->n;
		int fresh = round_of_interrupts(st);
		if (fresh < 0)
			return fresh;
		if (fresh == 0)
			break;
		int rc = wait_stopped(st, from, deadline);
		if (rc)
			return rc;
	}
	size_t alive = 0;
	for (size_t i = 0; i < st->n; i++) {
		struct lk_stopped *t = &st->t[i];
		if (t->gone)
			continue;
		if (ptrace(PTRACE_GETREGS, t->tid, 0, &t->regs) != 0)
			t->gone = 1;
		else
			alive++;
	}
	return alive ? 0 : lk_error_set(-ESRCH, "pid %d has ended", (int)tgid);
}

void lk_stopall_resume(struct lk_stopall *st)
{
	for (size_t i = 0; i < st->n; i++) {
		struct lk_stopped *t = &st->t[i];
		if (t->gone || t->kept)
			continue;
		if (t->seized)
			ptrace(PTRACE_DETACH, t->tid, 0, (void *)(long)t->sig);
		else
			ptrace(PTRACE_CONT, t->tid, 0, (void *)(long)t->sig);
	}
}

void lk_stopall_release(struct lk_stopall *st)
{
	free(st->t);
	free(st->kept);
	memset(st, 0, sizeof(*st));
}
