/* launcher.c - start the program under a collector, reap (launcher.h). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/ptrace.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cli/cli.h"
#include "cli/launcher.h"
#include "collector/launch.h"
#include "collector/scan.h"
#include "common/error.h"

static volatile sig_atomic_t forward_to;

static void forward_signal(int sig)
{
	if (forward_to > 0)
		kill(forward_to, sig);
}

int lk_cli_launch(struct lk_collector *c, char **prog, int follow, int frames,
		  struct lk_launched *out)
{
	memset(out, 0, sizeof(*out));
	int code = lk_launch_resolve(prog[0], &out->path);
	if (code) {
		lk_cli_error("%s", lk_error_detail());
		return code;
	}
	char *preload = lk_launch_find_preload();
	if (!preload) {
		lk_cli_error("cannot find libleakscope.so next to the leakscope program "
			     "(set LEAKSCOPE_PRELOAD)");
		return LK_EXIT_FAILURE;
	}
	struct lk_collector hooks = *c;
	int err = lk_collector_open(c);
	c->on_announce = hooks.on_announce;
	c->on_release = hooks.on_release;
	c->ctx = hooks.ctx;
	if (err) {
		lk_cli_error("cannot create the control socket: %s", lk_error_name(err));
		free(preload);
		return LK_EXIT_FAILURE;
	}
	c->follow = follow;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	struct lk_launch_signals sig;
	lk_launch_take_signals(&sig);
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	c->child_fd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	pid_t pid = lk_launch_spawn(out->path, prog, preload, c->socket_path, frames, &sig, &code);
	free(preload);
	if (pid < 0) {
		lk_cli_error("%s", lk_error_detail());
		return code;
	}
	out->pid = c->root = pid;
	forward_to = pid;
	signal(SIGTERM, forward_signal);
	signal(SIGHUP, forward_signal);
	return 0;
}

void lk_cli_launched_release(struct lk_launched *l)
{
	free(l->path);
	l->path = NULL;
}

void lk_cli_seize(struct lk_session *s, struct lk_exitstop *x)
{
	int rc = lk_exitstop_seize(x, s->pid);
	s->scan_wanted = 1;
	s->scan_errno = rc < 0 ? -rc : 0;
	s->exit_call = rc < 0;
	s->traced_elsewhere = rc < 0 && lk_exitstop_tracer_of(s->pid) > 0;
}

int lk_cli_release(pid_t pid, struct lk_exitstop *x)
{
	return lk_exitstop_release(x, pid);
}

/* A process stopped at its end: its last events, then the scan. */
static void scan_at_exit(struct lk_collector *c, struct lk_exitstop *x,
			 struct lk_exit_snapshot *snap)
{
	struct lk_session *s = lk_collector_find(c, snap->tgid);
	if (s) {
		lk_session_drain(s, 1);
		lk_scan_session(s, snap);
	}
	lk_exitstop_resume(x, snap);
}

static int is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* The program stopped (Ctrl-Z, a read from the terminal in the
 * background, SIGSTOP): leakscope stops as well, with the same signal, so
 * that the shell sees its job stopped and gets the terminal back. The
 * shell's SIGCONT to the job's group wakes both; a program that left our
 * group is woken by us. */
static void stop_like(pid_t root, int sig)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL}, old;
	sigaction(sig, &dfl, &old);
	kill(getpid(), sig);
	sigaction(sig, &old, NULL);
	if (getpgid(root) != getpgrp())
		kill(root, SIGCONT);
}

void lk_cli_handle_status(struct lk_collector *c, struct lk_exitstop *x, pid_t root,
			  int *root_status, int *root_done, pid_t pid, int st)
{
	struct lk_exit_snapshot snap;
	int h = x ? lk_exitstop_handle(x, pid, st, &snap) : -1;
	if (h == 1)
		scan_at_exit(c, x, &snap);
	if (h == 2)
		lk_collector_born(c, snap.tid, snap.tgid);
	/* a job-control stop: PTRACE_EVENT_STOP of a tracee, WUNTRACED otherwise */
	if (pid == root && WIFSTOPPED(st) && is_stop_signal(WSTOPSIG(st)) &&
	    (h == -1 || (st >> 16) == PTRACE_EVENT_STOP))
		stop_like(root, WSTOPSIG(st));
	if (h >= 0)
		return;
	if (!WIFEXITED(st) && !WIFSIGNALED(st))
		return;
	if (pid == root) {
		*root_status = st;
		*root_done = 1;
	}
	lk_collector_exited(c, pid, st);
}

void lk_cli_reap(struct lk_collector *c, struct lk_exitstop *x, pid_t root, int *root_status,
		 int *root_done)
{
	int st;
	pid_t pid;
	while (lk_exitstop_take_pending(x, &pid, &st))
		lk_cli_handle_status(c, x, root, root_status, root_done, pid, st);
	while ((pid = waitpid(-1, &st, WNOHANG | WUNTRACED | __WALL)) > 0)
		lk_cli_handle_status(c, x, root, root_status, root_done, pid, st);
}
