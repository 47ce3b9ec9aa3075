/*
 * exec.c - note execve() calls in the ring. When execve succeeds the
 * process image, and every block it held, is gone: the collector must not
 * report them, even if the new image never announces itself (a static
 * program, or one started with LD_PRELOAD removed). The execv* variants are
 * wrapped too because glibc implements them with internal calls to execve
 * that an interposer cannot see.
 *
 * A program that would gain privileges (setuid, setgid, file capabilities)
 * would run without them if it were still ptraced: the collector is asked
 * to let this process go first (release.c). The dynamic loader runs such
 * a program without LD_PRELOAD: it is not traced, and the report says so.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preload/preload.h"

#define EXPORT __attribute__((visibility("default")))

extern char **environ;

/* The file execvp would run for `file`, into buf; NULL if none. */
static const char *search_path(const char *file, char *buf, size_t size)
{
	if (strchr(file, '/'))
		return file;
	const char *dirs = getenv("PATH");
	for (const char *d = dirs ? dirs : "/bin:/usr/bin"; *d;) {
		size_t n = strcspn(d, ":");
		if (n + strlen(file) + 2 <= size) {
			memcpy(buf, n ? d : ".", n ? n : 1);
			buf[n ? n : 1] = '/';
			strcpy(buf + (n ? n : 1) + 1, file);
			if (access(buf, X_OK) == 0)
				return buf;
		}
		d += n + (d[n] == ':');
	}
	return NULL;
}

static int call(int (*real)(const char *, char *const[], char *const[]), const char *path,
		int search, char *const argv[], char *const envp[])
{
	/* a vfork child shares our memory and region: its exec is not ours */
	int ready = atomic_load(&lk_state) == LK_READY &&
		    (uint32_t)getpid() == lk_region.hdr->pid;
	if (ready) {
		char buf[PATH_MAX];
		int e = errno;
		const char *file = search ? search_path(path, buf, sizeof(buf)) : path;
		if (file && lk_release_gains_privileges(file))
			lk_release(getpid(), LK_RELEASE_PRIVILEGED, file);
		errno = e;
		lk_ring_emit(LK_EV_EXEC, 0, 0, 0);
	}
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
	return call(lk_real.execve, path, 0, argv, envp);
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
	return call(vp, file, 1, argv, envp);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}
