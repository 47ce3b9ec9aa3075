/*
 * collector.h - the collector's event loop: the control socket traced
 * processes announce themselves on, the set of sessions, and the detection
 * of each process's end (pidfd), exec (a new announcement from the same pid)
 * and fork (an announcement with LK_SHM_FORKED).
 *
 * Sessions that ended are moved to the `ended` list, in the order they
 * ended, for the caller to report and free; those in state
 * LK_SESSION_EXECED there exec'd a program that was not traced.
 */
#ifndef LK_COLLECTOR_COLLECTOR_H
#define LK_COLLECTOR_COLLECTOR_H

#include <stddef.h>
#include <sys/types.h>

#include "collector/session.h"

struct pollfd;

/* Something else the loop waits for, e.g. the control server: fill() adds
 * up to max descriptors to poll, dispatch() gets them back with their
 * revents once poll returned (and is called even when nothing happened, so
 * a source can enforce its own timeouts). */
struct lk_poll_source {
	size_t (*fill)(void *ctx, struct pollfd *fds, size_t max);
	void (*dispatch)(void *ctx, const struct pollfd *fds, size_t n);
	void *ctx;
};

/* A process seen being forked by a traced one, until its interposer
 * announces it; one that ends first is listed in the report. */
struct lk_born {
	pid_t pid;
	char *command;             /* its parent's, as fork left it */
	int ended, status;         /* its wait status, once it ended unannounced */
};

/* A connection whose message has not come yet (collector.c). */
struct lk_conn {
	int fd;
	uint64_t since_ms;
};

#define LK_CONNS_MAX 64
#define LK_CONN_WAIT_MS 10000 /* then it is dropped */

#define LK_POLL_SOURCES 4
#define LK_POLL_SOURCE_FDS 64 /* descriptors one source may add */

struct lk_collector {
	char *dir;                 /* private directory (0700) */
	char *socket_path;
	int listen_fd;
	int follow;                /* follow forks and execs */
	pid_t root;                /* the program we ran, 0 if none */
	struct lk_session **running;
	size_t n_running, cap_running;
	struct lk_session **ended;
	size_t n_ended, cap_ended;
	uint64_t ended_seq;
	size_t announced;          /* sessions ever accepted */
	/* called for each new session before the process may go on */
	void (*on_announce)(struct lk_session *s, void *ctx);
	/* pid is handed over (another tracer, a privileged program): let go
	 * of ptrace; 0 when it was let go */
	int (*on_release)(pid_t pid, void *ctx);
	void *ctx;
	/* given to each new session (see session.h) */
	lk_mark_fn on_mark;
	void *mark_ctx;
	int keep_marks;
	struct lk_poll_source sources[LK_POLL_SOURCES];
	size_t n_sources;
	struct lk_born *born;
	size_t n_born;
	struct lk_conn conns[LK_CONNS_MAX];
	size_t n_conns;
	int want_why;              /* sessions keep what keeps each block (--why) */
	int child_fd;              /* readable when a child changed state
				    * (a signalfd of SIGCHLD), or -1 */
};

int lk_collector_open(struct lk_collector *c);
void lk_collector_close(struct lk_collector *c);

/* Accept announcements, drain rings, detect ended processes; waits at most
 * timeout_ms for something to happen. Returns events consumed. */
uint64_t lk_collector_poll(struct lk_collector *c, int timeout_ms);

/* Poll src's descriptors in every lk_collector_poll; -ENOSPC when full. */
int lk_collector_add_source(struct lk_collector *c, const struct lk_poll_source *src);

/* The running session of pid, or NULL. */
struct lk_session *lk_collector_find(struct lk_collector *c, pid_t pid);

/* pid is known to have exited with wait status: finish its session (or
 * note that a process seen being born ended before announcing itself). */
void lk_collector_exited(struct lk_collector *c, pid_t pid, int status);

/* A traced process (parent) forked pid. */
void lk_collector_born(struct lk_collector *c, pid_t pid, pid_t parent);

#endif
