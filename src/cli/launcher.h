/*
 * launcher.h - what `run` and `record` share: start PROGRAM with the
 * interposer under a collector (resolving it, finding libleakscope.so,
 * becoming a child subreaper, passing SIGTERM and SIGHUP on to it), and
 * reap every child and exit stop afterwards. Messages are printed here
 * (src/cli/ is the edge).
 */
#ifndef LK_CLI_LAUNCHER_H
#define LK_CLI_LAUNCHER_H

#include <sys/types.h>

#include "collector/collector.h"
#include "collector/exitstop.h"

struct lk_launched {
	char *path;                /* the program, resolved */
	pid_t pid;                 /* 0 until started */
};

/* Open c (follow forks and execs or not), start prog with at most frames
 * frames per stack. c->on_announce may be set before or after. Returns 0,
 * or the exit status to leave with (127, 126, 125) after a message. */
int lk_cli_launch(struct lk_collector *c, char **prog, int follow, int frames,
		  struct lk_launched *out);
void lk_cli_launched_release(struct lk_launched *l);

/* Seize process s with x so that it stops at its end, to be scanned
 * there; where ptrace is not permitted, it is asked to call back at exit
 * instead. For c->on_announce. */
void lk_cli_seize(struct lk_session *s, struct lk_exitstop *x);

/* Let go of process pid, handed over to another tracer or executing a
 * privileged program (it calls back at exit instead). For c->on_release:
 * 0, or -1 when it was not ours. */
int lk_cli_release(pid_t pid, struct lk_exitstop *x);

/* Handle every wait status that is there: exit stops of processes seized
 * with x (NULL: none; each is scanned, then resumed), ends of children and
 * tracees. When root ends, *root_status and *root_done are set. */
void lk_cli_reap(struct lk_collector *c, struct lk_exitstop *x, pid_t root, int *root_status,
		 int *root_done);

/* The same for one wait status someone else took (a check's stop hands
 * back the statuses it did not expect). */
void lk_cli_handle_status(struct lk_collector *c, struct lk_exitstop *x, pid_t root,
			  int *root_status, int *root_done, pid_t pid, int st);

#endif
