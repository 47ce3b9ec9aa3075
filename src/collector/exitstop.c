/* exitstop.c - ptrace exit stops of traced processes (see exitstop.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collector/exitstop.h"
#include "collector/threadregs.h"

#define OPTIONS (PTRACE_O_TRACEEXIT | PTRACE_O_TRACECLONE)
#define FORK_OPTIONS (PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK)
#define OTHERS_MS 500 /* how long the others of a group exit are waited for */

struct thread {
	pid_t tid, tgid;
	int exiting;
	int held;       /* kept at its exit stop for the snapshot */
	int group_done; /* its process's snapshot was taken */
	int parked;     /* let go while stopped by job control, seized again
			 * once it runs (lk_exitstop_unpark) */
};

struct pending {
	pid_t tid;
	int status;
};

struct lk_exitstop {
	struct thread *t;
	size_t n, cap;
	long options;          /* of PTRACE_SEIZE */
	pid_t *released;       /* processes let go: their new threads too */
	size_t n_released;
	struct pending *pending; /* ends seen while letting go, for the caller */
	size_t n_pending;
};

int lk_exitstop_new(struct lk_exitstop **out, int follow_forks)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->options = OPTIONS | (follow_forks ? FORK_OPTIONS : 0);
	return 0;
}

void lk_exitstop_free(struct lk_exitstop *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++)
		if (!x->t[i].exiting && !x->t[i].parked)
			ptrace(PTRACE_DETACH, x->t[i].tid, 0, 0);
	free(x->t);
	free(x->released);
	free(x->pending);
	free(x);
}

static struct thread *find(struct lk_exitstop *x, pid_t tid)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].tid == tid)
			return &x->t[i];
	return NULL;
}

/* 1 if tgid's snapshot was taken: its threads that come later pass. */
static int group_done(const struct lk_exitstop *x, pid_t tgid)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].tgid == tgid && x->t[i].group_done)
			return 1;
	return 0;
}

static int add(struct lk_exitstop *x, pid_t tid, pid_t tgid)
{
	struct thread *t = find(x, tid);
	struct thread fresh = {.tid = tid, .tgid = tgid, .group_done = group_done(x, tgid)};
	if (t) {
		*t = fresh;
		return 0;
	}
	if (x->n == x->cap) {
		size_t nc = x->cap ? x->cap * 2 : 64;
		struct thread *a = realloc(x->t, nc * sizeof(*a));
		if (!a)
			return -ENOMEM;
		x->t = a;
		x->cap = nc;
	}
	x->t[x->n++] = fresh;
	return 0;
}

static void drop(struct lk_exitstop *x, pid_t tid)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].tid == tid) {
			x->t[i] = x->t[--x->n];
			return;
		}
}

int lk_exitstop_seize(struct lk_exitstop *x, pid_t tgid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	int rc = 0, seized = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid <= 0 || find(x, tid))
			continue;
		if (ptrace(PTRACE_SEIZE, tid, 0, (void *)x->options) != 0) {
			rc = -errno;
			continue;
		}
		seized++;
		if ((rc = add(x, tid, tgid)) != 0)
			break;
	}
	closedir(d);
	return seized ? 0 : rc;
}

static int live_threads(const struct lk_exitstop *x, pid_t tgid)
{
	int n = 0;
	for (size_t i = 0; i < x->n; i++)
		n += x->t[i].tgid == tgid && !x->t[i].exiting;
	return n;
}

static void continue_with(pid_t tid, int sig)
{
	ptrace(PTRACE_CONT, tid, 0, (void *)(long)sig);
}

/* Wait for tid's exit stop (the group exit kills it); 1 and its registers
 * when it came in time. Other stops on the way are let go. */
static int await_exit_stop(pid_t tid, struct user_regs_struct *regs)
{
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int st;
		pid_t r = waitpid(tid, &st, __WALL | WNOHANG);
		if (r < 0 || (r > 0 && (WIFEXITED(st) || WIFSIGNALED(st))))
			return 0;
		if (r > 0 && WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_EXIT)
			return ptrace(PTRACE_GETREGS, tid, 0, regs) == 0 ? 1 : (continue_with(tid, 0), 0);
		if (r > 0)
			continue_with(tid, 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 > OTHERS_MS)
			return 0;
		nanosleep(&(struct timespec){0, 100 * 1000}, NULL);
	}
}

/* The other threads of t's process, at their exit stops: held, with their
 * registers in snap. */
static void gather_others(struct lk_exitstop *x, struct thread *t, struct lk_exit_snapshot *snap)
{
	size_t n = 0;
	for (size_t i = 0; i < x->n; i++)
		n += x->t[i].tgid == t->tgid;
	snap->threads = calloc(n + 1, sizeof(*snap->threads));
	snap->vector_counts = calloc(n + 2, sizeof(*snap->vector_counts));
	if (snap->vector_counts)
		snap->vector_counts[0] = snap->n_vector_words;
	for (size_t i = 0; i < x->n; i++) {
		struct thread *o = &x->t[i];
		if (o->tgid != t->tgid)
			continue;
		o->group_done = 1;
		if (o == t || o->exiting || !snap->threads)
			continue;
		if (await_exit_stop(o->tid, &snap->threads[snap->n_threads])) {
			size_t before = snap->n_vector_words;
			snap->n_threads++;
			o->held = 1;
			lk_vector_reg_words(o->tid, &snap->threads[snap->n_threads - 1],
					    &snap->vector_words, &snap->n_vector_words);
			if (snap->vector_counts)
				snap->vector_counts[snap->n_threads] = snap->n_vector_words - before;
		}
		o->exiting = 1;
	}
}

/* The exit stop of t: decide whether the whole process is ending. */
static int exit_stop(struct lk_exitstop *x, struct thread *t, struct lk_exit_snapshot *snap)
{
	struct user_regs_struct regs;
	t->exiting = 1;
	if (t->group_done || ptrace(PTRACE_GETREGS, t->tid, 0, &regs) != 0) {
		continue_with(t->tid, 0);
		return 0;
	}
	/* exit() ends one thread; exit_group() or a fatal signal (the
	 * interrupted syscall, or none, is then in orig_rax) end them all */
	int whole = (long)regs.orig_rax != SYS_exit || live_threads(x, t->tgid) == 0;
	if (!whole) {
		continue_with(t->tid, 0);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)t->tid);
	snap->tgid = t->tgid;
	snap->tid = t->tid;
	snap->regs = regs;
	snap->threads = NULL;
	snap->n_threads = 0;
	snap->vector_words = NULL;
	snap->n_vector_words = 0;
	snap->vector_counts = NULL;
	snap->at_exit = 1;
	lk_vector_reg_words(t->tid, &regs, &snap->vector_words, &snap->n_vector_words);
	gather_others(x, t, snap);
	snap->mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	snap->maps_fd = -1;
	return 1;
}

static int was_released(const struct lk_exitstop *x, pid_t tgid)
{
	for (size_t i = 0; i < x->n_released; i++)
		if (x->released[i] == tgid)
			return 1;
	return 0;
}

static void keep_pending(struct lk_exitstop *x, pid_t tid, int status)
{
	struct pending *p = realloc(x->pending, (x->n_pending + 1) * sizeof(*p));
	if (!p)
		return;
	x->pending = p;
	x->pending[x->n_pending++] = (struct pending){tid, status};
}

/* Interrupt tid and detach it at its next stop, passing on a signal it was
 * about to get; a thread it creates meanwhile is appended to *more. */
static void let_go(struct lk_exitstop *x, pid_t tid, pid_t **more, size_t *n_more)
{
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0)
		return; /* gone, or not ours */
	for (;;) {
		int st;
		pid_t r = waitpid(tid, &st, __WALL | WNOHANG);
		if (r < 0)
			return;
		if (r > 0 && (WIFEXITED(st) || WIFSIGNALED(st))) {
			keep_pending(x, tid, st);
			return;
		}
		if (r > 0 && WIFSTOPPED(st)) {
			int event = st >> 16;
			unsigned long msg = 0;
			if (event == PTRACE_EVENT_CLONE && ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0) {
				pid_t *m = realloc(*more, (*n_more + 1) * sizeof(*m));
				if (m) {
					*more = m;
					(*more)[(*n_more)++] = (pid_t)msg;
				}
			}
			ptrace(PTRACE_DETACH, tid, 0, (void *)(long)(event == 0 ? WSTOPSIG(st) : 0));
			return;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 > OTHERS_MS)
			return; /* in uninterruptible sleep: it stays ours */
		nanosleep(&(struct timespec){0, 50 * 1000}, NULL);
	}
}

int lk_exitstop_release(struct lk_exitstop *x, pid_t tgid)
{
	pid_t *r = realloc(x->released, (x->n_released + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	x->released = r;
	x->released[x->n_released++] = tgid;
	pid_t *tids = NULL;
	size_t n = 0;
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].tgid == tgid) {
			pid_t *m = realloc(tids, (n + 1) * sizeof(*m));
			if (!m)
				break;
			tids = m;
			tids[n++] = x->t[i].tid;
		}
	for (size_t i = 0; i < n; i++) {
		drop(x, tids[i]);
		let_go(x, tids[i], &tids, &n);
	}
	free(tids);
	return 0;
}

int lk_exitstop_take_pending(struct lk_exitstop *x, pid_t *tid, int *status)
{
	if (!x || !x->n_pending)
		return 0;
	*tid = x->pending[0].tid;
	*status = x->pending[0].status;
	memmove(x->pending, x->pending + 1, --x->n_pending * sizeof(*x->pending));
	return 1;
}

/* The state letter of /proc/TID/stat ('R', 'S', 'T', ...), 0 if gone. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

size_t lk_exitstop_unpark(struct lk_exitstop *x)
{
	size_t parked = 0;
	for (size_t i = x->n; i-- > 0;) {
		struct thread *t = &x->t[i];
		if (!t->parked)
			continue;
		char st = thread_state(t->tid);
		if (st == 'T') {
			parked++;
			continue;
		}
		if (st && ptrace(PTRACE_SEIZE, t->tid, 0, (void *)x->options) == 0)
			t->parked = 0;
		else
			drop(x, t->tid); /* gone, or another tracer has it now */
	}
	return parked;
}

/* A field of /proc/TID/status ("Tgid:", "TracerPid:"); 0 if unknown. */
static pid_t status_field(pid_t tid, const char *name)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	size_t n = strlen(name);
	pid_t v = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, name, n) == 0) {
			v = (pid_t)atoi(line + n);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

static pid_t tgid_of(pid_t tid)
{
	return status_field(tid, "Tgid:");
}

pid_t lk_exitstop_tracer_of(pid_t tid)
{
	return status_field(tid, "TracerPid:");
}

int lk_exitstop_handle(struct lk_exitstop *x, pid_t tid, int status,
		       struct lk_exit_snapshot *snap)
{
	struct thread *t = find(x, tid);
	/* A new thread may report its first stop before its creator's clone
	 * event: its initial PTRACE_EVENT_STOP, or, when a group exit killed it
	 * at once, its exit stop. Only tracees report stops here (no
	 * WUNTRACED), so any stop is of a thread of ours. */
	if (!t && WIFSTOPPED(status)) {
		pid_t tgid = tgid_of(tid);
		if (tgid > 0 && was_released(x, tgid)) {
			ptrace(PTRACE_DETACH, tid, 0, 0);
			return 0;
		}
		if (tgid > 0 && add(x, tid, tgid) == 0)
			t = find(x, tid);
		if (!t) {
			continue_with(tid, 0); /* never leave a thread stopped */
			return 0;
		}
	}
	if (!t)
		return -1;
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		drop(x, tid);
		return -1; /* the caller wants exit statuses too */
	}
	if (!WIFSTOPPED(status))
		return 0;
	int sig = WSTOPSIG(status), event = status >> 16;
	unsigned long msg = 0;
	switch (event) {
	case PTRACE_EVENT_EXIT:
		return exit_stop(x, t, snap);
	case PTRACE_EVENT_CLONE:
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0)
			add(x, (pid_t)msg, t->tgid);
		continue_with(tid, 0);
		return 0;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) != 0 || add(x, (pid_t)msg, (pid_t)msg))
			msg = 0;
		continue_with(tid, 0);
		snap->tgid = t->tgid;
		snap->tid = (pid_t)msg;
		return msg ? 2 : 0;
	case PTRACE_EVENT_STOP:
		/* job control: let go of the stopped thread, which stays stopped
		 * as the process's state says, 'T' (a tracee's would be 't') */
		if ((sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) &&
		    ptrace(PTRACE_DETACH, tid, 0, 0) == 0)
			t->parked = 1;
		else
			continue_with(tid, 0);
		return 0;
	case 0:
		continue_with(tid, sig); /* a signal for the program: pass it on */
		return 0;
	default:
		continue_with(tid, 0);
		return 0;
	}
}

void lk_exitstop_resume(struct lk_exitstop *x, struct lk_exit_snapshot *snap)
{
	if (snap->mem_fd >= 0)
		close(snap->mem_fd);
	snap->mem_fd = -1;
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].held && x->t[i].tgid == snap->tgid) {
			x->t[i].held = 0;
			continue_with(x->t[i].tid, 0);
		}
	free(snap->threads);
	snap->threads = NULL;
	free(snap->vector_words);
	snap->vector_words = NULL;
	free(snap->vector_counts);
	snap->vector_counts = NULL;
	continue_with(snap->tid, 0);
}
