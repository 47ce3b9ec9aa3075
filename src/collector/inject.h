/*
 * inject.h - make one thread of a running process load a library with its
 * own dlopen (glibc 2.34 and later have it in libc) and call a function of
 * it, with ptrace, while its other threads run on: what `leakscope attach`
 * and `detach` do.
 *
 * A thread is chosen that is safe to borrow: blocked in a system call that
 * waits (read, poll, accept, a sleep ...) or running the program's own
 * code, not inside the C library or the dynamic linker, where it might hold
 * the very lock dlopen takes; threads are looked at one at a time, each
 * stopped only for that look. The chosen one runs a stub
 * (inject_stub.c) written into the unused bytes after a module's code
 * (they stay there: the page becomes the process's own copy, and nothing
 * but a stub ever runs there),
 * which does the whole call on a stack of its own with every signal
 * blocked and gives back every register, the extended state and the
 * signal mask before it returns to the program; a system call it was
 * interrupted in is restarted as the kernel would have. The thread is
 * traced from system call to system call until the stub's last one tells
 * the outcome; if leakscope dies on the way, the thread finishes the stub
 * alone and goes on unharmed.
 */
#ifndef LK_COLLECTOR_INJECT_H
#define LK_COLLECTOR_INJECT_H

#include <stdint.h>
#include <sys/types.h>

enum lk_stub_status { LK_STUB_CALLED, LK_STUB_NO_LIBRARY, LK_STUB_NO_SYMBOL, LK_STUB_NO_STACK };

struct lk_inject {
	const char *library;     /* absolute path, dlopen'ed RTLD_NOW | RTLD_LOCAL */
	const char *symbol;      /* int symbol(const char *argument, int number) */
	const char *argument;
	int number;
	int timeout_ms;          /* to find a thread, and for the call */
	/* called between looks at the thread while it runs the call (the
	 * function may wait on the caller, e.g. to announce a region) */
	void (*idle)(void *ctx);
	void *ctx;
};

struct lk_inject_result {
	int value;               /* the function's */
	pid_t tid;               /* the thread that ran it */
	uint64_t total_us;       /* from the first stop to the outcome */
	unsigned threads_looked; /* threads stopped to choose one */
};

/* 0 when pid has a C library with dlopen, else a negative code with
 * lk_error_set() detail (no such process, statically linked, glibc older
 * than 2.34). */
int lk_inject_possible(pid_t pid);

/* Returns 0 with out filled, or a negative code with lk_error_set()
 * detail (no such process, ptrace refused, no C library with dlopen, no
 * thread safe to borrow in time, the library or symbol not found). */
int lk_inject_call(pid_t pid, const struct lk_inject *in, struct lk_inject_result *out);

#endif
