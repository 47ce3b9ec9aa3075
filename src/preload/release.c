/*
 * release.c - hand this process, or one it is about to trace, over: to
 * another tracer (ptrace), or to a program that gains privileges (execve
 * of a setuid, setgid or file-capability program: a ptraced exec runs
 * without them). The collector detaches ptrace from the process and asks
 * it to call back at exit instead (common/shm.h, struct lk_release);
 * recording goes on.
 *
 * ptrace() is interposed for PTRACE_TRACEME, PTRACE_ATTACH and
 * PTRACE_SEIZE only; everything else goes straight to libc's.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "preload/preload.h"

#define EXPORT __attribute__((visibility("default")))

LK_HIDDEN void lk_release(pid_t pid, unsigned reason, const char *path)
{
	const char *socket_path = lk_exitcall_socket();
	if (!socket_path || atomic_load(&lk_state) != LK_READY)
		return;
	struct lk_release m = {.magic = LK_RELEASE_MAGIC, .pid = (uint32_t)pid, .reason = reason};
	if (path) {
		size_t n = strnlen(path, sizeof(m.path) - 1);
		memcpy(m.path, path, n);
	}
	int e = errno;
	lk_socket_call(socket_path, &m, sizeof(m), NULL, 0, NULL);
	errno = e;
}

/* 1 if executing path would raise this process's privileges. */
LK_HIDDEN int lk_release_gains_privileges(const char *path)
{
	struct stat st;
	int e = errno, gains = 0;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		gains = ((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
			((st.st_mode & S_ISGID) && st.st_gid != getegid()) ||
			(geteuid() != 0 && getxattr(path, "security.capability", NULL, 0) > 0);
	errno = e;
	return gains;
}

EXPORT long ptrace(enum __ptrace_request request, ...)
{
	va_list ap;
	va_start(ap, request);
	pid_t pid = va_arg(ap, pid_t);
	void *addr = va_arg(ap, void *);
	void *data = va_arg(ap, void *);
	va_end(ap);
	if (!lk_real.ptrace)
		lk_real_resolve();
	if (!lk_real.ptrace) {
		errno = ENOSYS;
		return -1;
	}
	if (request == PTRACE_TRACEME)
		lk_release(getpid(), LK_RELEASE_TRACER, NULL);
	else if (request == PTRACE_ATTACH || request == PTRACE_SEIZE)
		lk_release(pid, LK_RELEASE_TRACER, NULL);
	return lk_real.ptrace(request, pid, addr, data);
}
