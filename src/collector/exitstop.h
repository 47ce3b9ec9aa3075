/*
 * exitstop.h - stop a traced process at its end, while its memory is still
 * there, so the reachability scan can read it from outside.
 *
 * Every announced process is PTRACE_SEIZEd (all its threads, new threads
 * automatically) with PTRACE_O_TRACEEXIT. Nothing else of ptrace is used:
 * signals are passed on untouched and job-control stops kept. A thread
 * reaching its exit stop through exit_group(), a fatal signal, or as the
 * last thread, means the whole process ends: the caller gets a snapshot to
 * scan, then releases the thread. The other threads, killed by the group
 * exit, are waited for (briefly) at their own exit stops, so that their
 * registers and stack pointers are in the snapshot too; they are released
 * with it. One snapshot per process: later exit stops of its threads pass. SIGKILL from outside ends a process with
 * no stop at all: its report then has no reachability classes.
 */
#ifndef LK_COLLECTOR_EXITSTOP_H
#define LK_COLLECTOR_EXITSTOP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

struct lk_exitstop;

struct lk_exit_snapshot {
	pid_t tgid, tid;                 /* the process, and its stopped thread */
	struct user_regs_struct regs;    /* that thread's registers */
	int mem_fd;                      /* /proc/TID/mem, owned by the tracer */
	int maps_fd;                     /* its /proc/TID/maps, or -1: open it by tid */
	/* the other stopped threads' registers (their stacks are scanned from
	 * their stack pointers, their registers are roots); NULL: none known.
	 * At a group exit, those of the threads that reached their own exit
	 * stop in time (owned by the snapshot until lk_exitstop_resume). */
	struct user_regs_struct *threads;
	size_t n_threads;
	/* every stopped thread's vector registers (threadregs.h), as words,
	 * owned like threads; NULL: none known */
	uint64_t *vector_words;
	size_t n_vector_words;
	/* how many of them are each thread's (the stopped thread first, then
	 * threads[] in order), or NULL: not known */
	size_t *vector_counts;
	/* the process is at its end (an exit stop, its exit call-back), not
	 * stopped for a check: the exit path's frames are dead */
	int at_exit;
};

/* follow_forks: processes forked by a seized one are traced from their
 * birth (PTRACE_O_TRACEFORK, _TRACEVFORK), so that one killed before its
 * interposer announced it is still known. */
int lk_exitstop_new(struct lk_exitstop **out, int follow_forks);
void lk_exitstop_free(struct lk_exitstop *x);

/* Seize every thread of tgid; -EPERM etc. when ptrace is not allowed. */
int lk_exitstop_seize(struct lk_exitstop *x, pid_t tgid);

/* Handle a waitpid() status of tid. Returns 1 when tid's process is ending
 * and stopped (snap filled: scan it, then lk_exitstop_resume()), 2 when it
 * forked (snap->tid is the new process, snap->tgid the parent, both left
 * running), 0 when the stop was handled here, -1 when status is not a
 * ptrace stop of ours. */
int lk_exitstop_handle(struct lk_exitstop *x, pid_t tid, int status,
		       struct lk_exit_snapshot *snap);

/* Let go of every thread of tgid, now and when it makes more (it is
 * handed over to another tracer, or executes a privileged program): each
 * is interrupted and detached with the signal it was about to get. Ends of
 * threads seen meanwhile are kept for lk_exitstop_take_pending(). */
int lk_exitstop_release(struct lk_exitstop *x, pid_t tgid);

/* A wait status lk_exitstop_release() took: 1 and it, or 0. */
int lk_exitstop_take_pending(struct lk_exitstop *x, pid_t *tid, int *status);

/* The pid tracing tid (/proc/TID/status, TracerPid), 0 if none or unknown. */
pid_t lk_exitstop_tracer_of(pid_t tid);

/* Threads stopped by job control are let go (a stopped process shows
 * 'T', as without leakscope, not a tracee's 't'); seize again those that
 * run once more. Returns how many are still stopped: call again soon. */
size_t lk_exitstop_unpark(struct lk_exitstop *x);

/* Let the thread of snap finish exiting. */
void lk_exitstop_resume(struct lk_exitstop *x, struct lk_exit_snapshot *snap);

#endif
