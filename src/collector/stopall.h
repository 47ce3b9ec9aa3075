/*
 * stopall.h - stop every thread of a running process with ptrace, read
 * their registers, and let them go again: what `leakscope check` needs to
 * scan a process that goes on running afterwards.
 *
 * Threads are PTRACE_SEIZEd (or, when we trace them already for their exit
 * stops, just interrupted) and PTRACE_INTERRUPTed, one /proc/PID/task round
 * after another until a round finds no thread it had not seen: a thread
 * created meanwhile is stopped too. Wait statuses that are not ours to
 * consume - a thread's end, and, for processes we already trace, their
 * other ptrace events - are kept, and the thread is left in that stop for
 * the caller, who replays the statuses through its own wait handling after
 * lk_stopall_resume().
 *
 * If the stopping process (leakscope) dies, the kernel detaches its
 * tracees: a stopped target never stays stopped because of us.
 */
#ifndef LK_COLLECTOR_STOPALL_H
#define LK_COLLECTOR_STOPALL_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/user.h>

struct lk_stopped {
	pid_t tid;
	int seized;          /* we attached it here: detach on resume */
	int sig;             /* a signal it was about to get: delivered on resume */
	int kept;            /* its status is the caller's: left stopped */
	int gone;            /* it ended meanwhile */
	struct user_regs_struct regs;
};

struct lk_wait {
	pid_t tid;
	int status;
};

struct lk_stopall {
	pid_t tgid;
	struct lk_stopped *t;
	size_t n, cap;
	struct lk_wait *kept;   /* statuses for the caller, in the order seen */
	size_t n_kept, cap_kept;
};

/* Stop every thread of tgid within timeout_ms. Returns 0 with st filled
 * (stopped threads have regs), or a negative code with lk_error_set()
 * detail; either way call lk_stopall_resume() and lk_stopall_release(). */
int lk_stopall_stop(struct lk_stopall *st, pid_t tgid, int timeout_ms);

/* Let every thread go (detach, or continue), delivering held signals. */
void lk_stopall_resume(struct lk_stopall *st);

void lk_stopall_release(struct lk_stopall *st);

#endif
