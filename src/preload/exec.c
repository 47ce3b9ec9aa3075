/*
 * exec.c - note execve() calls in the ring. When execve succeeds the
 * process image, and every block it held, is gone: the collector must not
 * report them, even if the new image never announces itself (a static
 * program, or one started with LD_PRELOAD removed). The execv* variants are
 * wrapped too because glibc implements them with internal calls to execve
 * that an interposer cannot see.
 */
#include <errno.h>
#include <unistd.h>

#include "preload/preload.h"

#define EXPORT __attribute__((visibility("default")))

extern char **environ;

static int call(int (*real)(const char *, char *const[], char *const[]), const char *path,
		char *const argv[], char *const envp[])
{
	/* a vfork child shares our memory and region: its exec is not ours */
	int ready = atomic_load(&lk_state) == LK_READY &&
		    (uint32_t)getpid() == lk_region.hdr->pid;
	if (ready)
		lk_ring_emit(LK_EV_EXEC, 0, 0, 0);
	int rc = real(path, argv, envp);
	int e = errno;
	if (ready)
		lk_ring_emit(LK_EV_EXEC_FAILED, 0, 0, 0);
	errno = e;
	return rc;
}

static int vp(const char *file, char *const argv[], char *const envp[])
{
	return lk_real.execvpe(file, argv, envp);
}

static int resolve(void)
{
	if (!lk_real.execve)
		lk_real_resolve();
	return lk_real.execve && lk_real.execvpe ? 0 : -1;
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	if (resolve() != 0) {
		errno = ENOSYS;
		return -1;
	}
	return call(lk_real.execve, path, argv, envp);
}

EXPORT int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (resolve() != 0) {
		errno = ENOSYS;
		return -1;
	}
	return call(vp, file, argv, envp);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}
