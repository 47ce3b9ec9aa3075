/* inject.c - run a library's function in a running process (see
 * inject.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collector/elfsym.h"
#include "collector/inject.h"
#include "collector/procmods.h"
#include "common/error.h"
#include "common/fault.h"

extern const unsigned char lk_stub_code[], lk_stub_params[];

#define STRINGS_AT 48      /* struct of the parameters, then the strings */
#define RED_ZONE 128
#define PAGE 4096u

/* Linux's restart codes, seen in %rax of a thread stopped in a call. */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void sleep_us(long us)
{
	nanosleep(&(struct timespec){0, us * 1000}, NULL);
}

/* ---- what the process has loaded ------------------------------------- */

struct target {
	pid_t pid;
	struct lk_shmview_module *mods;
	uint32_t n_mods;
	uint64_t dlopen, dlsym;
	uint64_t lock_lo[2], lock_hi[2];  /* libc's and ld.so's ranges */
	uint64_t slack;                   /* where the stub went */
};

static int named(const char *path, const char *prefix)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strncmp(base, prefix, strlen(prefix)) == 0;
}

static int find_libc(struct target *t)
{
	const char *names[2] = {"dlopen", "dlsym"};
	uint64_t at[2];
	int libc = 0;
	for (uint32_t i = 0; i < t->n_mods; i++) {
		const struct lk_shmview_module *m = &t->mods[i];
		if (named(m->path, "ld-linux")) {
			t->lock_lo[1] = m->lo;
			t->lock_hi[1] = m->hi;
		}
		if (!named(m->path, "libc.so"))
			continue;
		libc = 1;
		t->lock_lo[0] = m->lo;
		t->lock_hi[0] = m->hi;
		if (lk_elf_symbols(m->path, names, at, 2) == 2) {
			t->dlopen = at[0] + m->bias;
			t->dlsym = at[1] + m->bias;
		}
	}
	if (!libc)
		return lk_error_set(-ENOEXEC, "pid %d has no C library loaded (a statically linked "
				    "program): there is no dlopen to load leakscope with", (int)t->pid);
	if (!t->dlopen)
		return lk_error_set(-ENOEXEC, "pid %d's C library has no dlopen (glibc older than "
				    "2.34 keeps it in libdl)", (int)t->pid);
	return 0;
}

/* The unused bytes after the end of path's executable segment, up to the
 * end of its page: mapped, executable, never run. */
static uint64_t code_slack(const struct lk_shmview_module *m, uint64_t *at)
{
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	Elf *e = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL)
							       : NULL;
	size_t n = 0;
	uint64_t size = 0;
	if (e && elf_getphdrnum(e, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
				continue;
			uint64_t end = m->bias + ph.p_vaddr + ph.p_memsz;
			uint64_t page_end = (end + PAGE - 1) & ~(uint64_t)(PAGE - 1);
			if (page_end - end > size) {
				size = page_end - end;
				*at = (end + 15) & ~(uint64_t)15;
				size = page_end > *at ? page_end - *at : 0;
			}
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return size;
}

static int mem_write(int fd, uint64_t at, const void *buf, size_t n)
{
	return pwrite(fd, buf, n, (off_t)at) == (ssize_t)n ? 0 : -1;
}

/* Write the stub into the first slack of a module that takes it (the
 * write goes through /proc/PID/mem: a page it cannot reach is passed). */
static int place_stub(struct target *t, int mem, const unsigned char *stub, size_t size)
{
	int err = 0;
	for (uint32_t i = 0; i < t->n_mods; i++) {
		uint64_t at = 0;
		if (!t->mods[i].path[0] || code_slack(&t->mods[i], &at) < size)
			continue;
		if (mem_write(mem, at, stub, size) == 0) {
			t->slack = at;
			return 0;
		}
		err = errno;
	}
	if (err)
		return lk_error_set(-EIO, "cannot write leakscope's loader into pid %d: %s",
				    (int)t->pid, strerror(err));
	return lk_error_set(-ENOSPC, "no room for leakscope's loader in pid %d's code pages",
			    (int)t->pid);
}

/* ---- choosing a thread ------------------------------------------------- */

enum { UNSAFE, FUTEX, RUNNING, WAITING };

static int waiting_call(long nr)
{
	static const long calls[] = {
		SYS_read, SYS_pread64, SYS_readv, SYS_select, SYS_pause, SYS_nanosleep,
		SYS_accept, SYS_recvfrom, SYS_recvmsg, SYS_wait4, SYS_msgrcv,
		SYS_rt_sigtimedwait, SYS_rt_sigsuspend, SYS_epoll_wait, SYS_clock_nanosleep,
		SYS_waitid, SYS_ppoll, SYS_pselect6, SYS_epoll_pwait, SYS_accept4,
		SYS_recvmmsg, SYS_poll, SYS_io_getevents, SYS_semtimedop, SYS_mq_timedreceive,
	};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i] == nr)
			return 1;
	return 0;
}

static int restarting(const struct user_regs_struct *r)
{
	long rax = (long)r->rax;
	return (long)r->orig_rax >= 0 &&
	       (rax == -ERESTARTSYS || rax == -ERESTARTNOINTR || rax == -ERESTARTNOHAND ||
		rax == -ERESTART_RESTARTBLOCK);
}

static int score(const struct target *t, const struct user_regs_struct *r)
{
	if (restarting(r)) {
		if (waiting_call((long)r->orig_rax))
			return WAITING;
		return (long)r->orig_rax == SYS_futex ? FUTEX : UNSAFE;
	}
	for (int i = 0; i < 2; i++)
		if (r->rip >= t->lock_lo[i] && r->rip < t->lock_hi[i])
			return UNSAFE;
	return RUNNING;
}

/* Wait for a stop of tid until deadline; 0 with *st, or -ETIMEDOUT,
 * -ESRCH when it ended. idle is called meanwhile. */
static int wait_stop(pid_t tid, int *st, uint64_t deadline, const struct lk_inject *in)
{
	for (long pause_us = 20;; pause_us = pause_us < 1000 ? pause_us * 2 : 1000) {
		pid_t r = waitpid(tid, st, __WALL | WNOHANG);
		if (r == tid)
			return WIFEXITED(*st) || WIFSIGNALED(*st) ? -ESRCH : 0;
		if (r < 0 && errno != EINTR)
			return -ESRCH;
		if (now_us() > deadline)
			return -ETIMEDOUT;
		if (in->idle)
			in->idle(in->ctx);
		sleep_us(pause_us);
	}
}

static int seize_refused(pid_t pid, int err)
{
	if (err == ESRCH)
		return lk_error_set(-ESRCH, "no process %d", (int)pid);
	if (err != EPERM)
		return lk_error_set(-err, "cannot trace pid %d: %s", (int)pid, strerror(err));
	char path[64], line[256];
	int tracer = 0, scope = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f) && sscanf(line, "TracerPid: %d", &tracer) != 1)
		;
	if (f)
		fclose(f);
	if (tracer)
		return lk_error_set(-EBUSY, "pid %d is already traced by pid %d (a debugger?): "
				    "detach it first", (int)pid, tracer);
	f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (f && fscanf(f, "%d", &scope) != 1)
		scope = 0;
	if (f)
		fclose(f);
	if (scope > 0)
		return lk_error_set(-EPERM, "ptrace is not permitted on pid %d: "
				    "kernel.yama.ptrace_scope is %d (0 allows it; as root, "
				    "'sysctl kernel.yama.ptrace_scope=0')", (int)pid, scope);
	return lk_error_set(-EPERM, "ptrace is not permitted on pid %d (another user's "
			    "process, or a setuid program)", (int)pid);
}

/* Stop tid and read its registers: 0; 1 when it cannot be looked at now
 * (it is then let go; a signal it was about to get is delivered); or
 * -errno when ptrace refused it. */
static int look(pid_t tid, struct user_regs_struct *r, int *sig, uint64_t deadline,
		const struct lk_inject *in)
{
	int st;
	*sig = 0;
	if (ptrace(PTRACE_SEIZE, tid, 0, PTRACE_O_TRACESYSGOOD) != 0)
		return -errno;
	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0 || wait_stop(tid, &st, deadline, in) != 0)
		goto gone;
	if (WIFSTOPPED(st) && (st >> 16) != PTRACE_EVENT_STOP) {
		*sig = WSTOPSIG(st);     /* a signal came first: let it go, look later */
		goto gone;
	}
	if ((st >> 16) == PTRACE_EVENT_STOP && WSTOPSIG(st) != SIGTRAP) {
		*sig = -1;               /* stopped by job control: not now */
		goto gone;
	}
	if (ptrace(PTRACE_GETREGS, tid, 0, r) != 0)
		goto gone;
	return 0;
gone:
	ptrace(PTRACE_DETACH, tid, 0, *sig > 0 ? *sig : 0);
	return 1;
}

static int read_tids(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	int n = 0;
	struct dirent *e;
	if (!d)
		return -ESRCH;
	tids[n++] = pid;   /* the main thread first */
	while ((e = readdir(d)) && n < max) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid > 0 && tid != pid)
			tids[n++] = tid;
	}
	closedir(d);
	return n;
}

#define THREADS_LOOKED_MAX 4096

/* Leave the chosen thread stopped, its registers in *r. */
static int choose(struct target *t, const struct lk_inject *in, struct user_regs_struct *r,
		  pid_t *chosen, unsigned *looked)
{
	uint64_t deadline = now_us() + (uint64_t)in->timeout_ms * 1000;
	static pid_t tids[THREADS_LOOKED_MAX];
	for (int round = 0; now_us() < deadline; round++) {
		int n = read_tids(t->pid, tids, THREADS_LOOKED_MAX);
		if (n < 0)
			return lk_error_set(-ESRCH, "pid %d ended", (int)t->pid);
		for (int i = 0; i < n; i++) {
			int sig;
			int rc = look(tids[i], r, &sig, deadline, in);
			(*looked)++;
			if (rc < 0 && (i == 0 || rc != -ESRCH))
				return seize_refused(t->pid, -rc);
			if (rc != 0)
				continue;
			int s = score(t, r);
			/* a futex wait only after some rounds found nothing better */
			if (s >= RUNNING || (s == FUTEX && round >= 3)) {
				*chosen = tids[i];
				return 0;
			}
			ptrace(PTRACE_DETACH, tids[i], 0, 0);
		}
		sleep_us(2000);
	}
	return lk_error_set(-ETIMEDOUT, "no thread of pid %d could be borrowed within %d ms: each "
			    "was inside the C library or the dynamic linker", (int)t->pid,
			    in->timeout_ms);
}

/* ---- the call ------------------------------------------------------------ */


/* The stub with its parameters and strings, as it goes into the process. */
static unsigned char *build_stub(const struct target *t, const struct lk_inject *in, size_t *size)
{
	size_t lib = strlen(in->library) + 1, sym = strlen(in->symbol) + 1;
	size_t arg = strlen(in->argument) + 1;
	size_t params = (size_t)(lk_stub_params - lk_stub_code);
	*size = params + STRINGS_AT + lib + sym + arg;
	unsigned char *b = calloc(1, *size);
	if (!b)
		return NULL;
	memcpy(b, lk_stub_code, params);
	uint64_t p[6] = {t->dlopen, t->dlsym, (uint64_t)(int64_t)in->number, lib, lib + sym, 0};
	memcpy(b + params, p, sizeof(p));
	memcpy(b + params + STRINGS_AT, in->library, lib);
	memcpy(b + params + STRINGS_AT + lib, in->symbol, sym);
	memcpy(b + params + STRINGS_AT + lib + sym, in->argument, arg);
	return b;
}

/* Point the stopped thread at the stub: its registers as they are, but
 * the stub's %rip and a %rsp below the red zone that holds where to go on
 * (the interrupted system call's instruction again, to restart it). */
static int enter_stub(int mem, pid_t tid, const struct user_regs_struct *r0, uint64_t stub)
{
	struct user_regs_struct r = *r0;
	uint64_t resume = r0->rip;
	if (restarting(r0)) {
		resume -= 2;   /* the syscall instruction */
		r.rax = (long)r0->rax == -ERESTART_RESTARTBLOCK ? SYS_restart_syscall : r0->orig_rax;
	}
	r.rsp = r0->rsp - RED_ZONE - 8;
	r.rip = stub;
	r.orig_rax = (uint64_t)-1;   /* no restart of the kernel's on our %rip */
	if (mem_write(mem, r.rsp, &resume, sizeof(resume)) != 0 ||
	    ptrace(PTRACE_SETREGS, tid, 0, &r) != 0)
		return -1;
	return 0;
}

struct outcome {
	int status, value;
};

/* Follow tid from system call to system call until the stub's getpid:
 * the outcome is in its registers, and the thread, let go there, finishes
 * the stub alone. */
static int run_stub(pid_t tid, uint64_t stub, size_t size, const struct lk_inject *in,
		    struct outcome *o)
{
	uint64_t deadline = now_us() + (uint64_t)in->timeout_ms * 1000;
	int sig = 0, st;
	for (int n = 1;; n++) {
		struct user_regs_struct r;
		char point[32];
		snprintf(point, sizeof(point), "inject-syscall-%d", n);
		lk_fault_point(point);
		if (ptrace(PTRACE_SYSCALL, tid, 0, sig) != 0)
			return -ESRCH;
		sig = 0;
		int rc = wait_stop(tid, &st, deadline, in);
		if (rc)
			return rc;
		if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {
			if (ptrace(PTRACE_GETREGS, tid, 0, &r) != 0)
				return -ESRCH;
			if (r.rip >= stub && r.rip < stub + size && (long)r.orig_rax == SYS_getpid) {
				o->status = (int)r.rdi;
				o->value = (int)r.rsi;
				return 0;
			}
		} else if ((st >> 16) != PTRACE_EVENT_STOP) {
			sig = WSTOPSIG(st);   /* the program's: delivered */
		}   /* else job control: the thread goes on when continued */
	}
}

static int call_in(struct target *t, const struct lk_inject *in, pid_t tid,
		   const struct user_regs_struct *r0, struct outcome *o)
{
	char path[64];
	size_t size;
	unsigned char *stub = build_stub(t, in, &size);
	int rc = stub ? 0 : -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)t->pid);
	int mem = rc ? -1 : open(path, O_RDWR | O_CLOEXEC);
	if (!rc && mem < 0)
		rc = lk_error_set(-errno, "cannot write the memory of pid %d: %s", (int)t->pid,
				  strerror(errno));
	if (!rc)
		rc = place_stub(t, mem, stub, size);
	lk_fault_point("inject-stub-written");
	if (!rc && enter_stub(mem, tid, r0, t->slack) != 0)
		rc = lk_error_set(-EIO, "cannot set the registers of thread %d", (int)tid);
	lk_fault_point("inject-entered");
	if (!rc && (rc = run_stub(tid, t->slack, size, in, o)) != 0)
		rc = lk_error_set(rc, "thread %d of pid %d did not finish loading leakscope "
				  "(%s)", (int)tid, (int)t->pid,
				  rc == -ETIMEDOUT ? "timed out" : "the process ended");
	if (mem >= 0)
		close(mem);
	free(stub);
	return rc;
}

static const char *stub_failure(int status)
{
	switch (status) {
	case LK_STUB_NO_LIBRARY: return "its dlopen could not load the interposer";
	case LK_STUB_NO_SYMBOL: return "the interposer it loaded lacks the entry point";
	case LK_STUB_NO_STACK: return "it had no memory for a stack";
	}
	return "unknown outcome";
}

int lk_inject_possible(pid_t pid)
{
	struct target t = {.pid = pid};
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return lk_error_set(-ESRCH, "no process %d", (int)pid);
	int rc = lk_procmods_read(pid, &t.mods, &t.n_mods);
	if (rc == -EACCES || rc == -EPERM)   /* its maps are closed to us as ptrace is */
		rc = seize_refused(pid, EPERM);
	if (rc == 0)
		rc = find_libc(&t);
	lk_procmods_free(t.mods, t.n_mods);
	return rc;
}

int lk_inject_call(pid_t pid, const struct lk_inject *in, struct lk_inject_result *out)
{
	struct target t = {.pid = pid};
	struct user_regs_struct r;
	struct outcome o = {0};
	memset(out, 0, sizeof(*out));
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return lk_error_set(-ESRCH, "no process %d", (int)pid);
	int rc = lk_procmods_read(pid, &t.mods, &t.n_mods);
	if (rc == 0)
		rc = find_libc(&t);
	uint64_t t0 = now_us();
	if (rc == 0)
		rc = choose(&t, in, &r, &out->tid, &out->threads_looked);
	if (rc == 0) {
		lk_fault_point("inject-chosen");
		rc = call_in(&t, in, out->tid, &r, &o);
		lk_fault_point("inject-outcome");
		ptrace(PTRACE_DETACH, out->tid, 0, 0);
	}
	out->total_us = now_us() - t0;
	lk_procmods_free(t.mods, t.n_mods);
	if (rc == 0 && o.status != LK_STUB_CALLED)
		rc = lk_error_set(-ENOEXEC, "pid %d could not load leakscope: %s", (int)pid,
				  stub_failure(o.status));
	out->value = o.value;
	return rc;
}
