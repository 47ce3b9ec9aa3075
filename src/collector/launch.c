/* launch.c - find, check and start the program to trace (see launch.h). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collector/launch.h"
#include "common/error.h"
#include "common/shm.h"

static int check_file(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return lk_error_set(LK_LAUNCH_NOT_FOUND, "cannot run '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode) || access(path, X_OK) != 0)
		return lk_error_set(LK_LAUNCH_NOT_EXEC, "cannot run '%s': not executable", path);
	if ((st.st_mode & (S_ISUID | S_ISGID)) && geteuid() != 0)
		return lk_error_set(LK_LAUNCH_UNTRACEABLE,
				    "cannot trace '%s': it is setuid/setgid, and the loader ignores "
				    "LD_PRELOAD for such programs", path);
	return 0;
}

/* 1 if path is an ELF file without a program interpreter (static). */
static int is_static_elf(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf64_Ehdr eh;
	int result = 0;
	if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) &&
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum < 256) {
		result = 1;
		for (int i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
			    (ssize_t)sizeof(ph))
				break;
			if (ph.p_type == PT_INTERP)
				result = 0;
		}
	}
	close(fd);
	return result;
}

int lk_launch_resolve(const char *name, char **path)
{
	char buf[PATH_MAX];
	if (strchr(name, '/')) {
		snprintf(buf, sizeof(buf), "%s", name);
	} else {
		const char *p = getenv("PATH");
		int found = 0;
		for (p = p ? p : "/usr/local/bin:/usr/bin:/bin"; *p && !found;) {
			size_t len = strcspn(p, ":");
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? p : ".", name);
			found = access(buf, F_OK) == 0;
			p += len + (p[len] == ':');
		}
		if (!found)
			return lk_error_set(LK_LAUNCH_NOT_FOUND, "cannot run '%s': command not found", name);
	}
	int rc = check_file(buf);
	if (rc)
		return rc;
	if (is_static_elf(buf))
		return lk_error_set(LK_LAUNCH_UNTRACEABLE,
				    "cannot trace '%s': it is statically linked, so there is no "
				    "allocator to interpose (rebuild it dynamically linked)", buf);
	*path = strdup(buf);
	return 0;
}

/* name next to the leakscope program, or in ../lib/leakscope. */
static char *beside_program(const char *name)
{
	char self[PATH_MAX], try[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	*slash = 0;
	const char *cands[] = {"%s/%s", "%s/../lib/leakscope/%s"};
	for (size_t i = 0; i < sizeof(cands) / sizeof(*cands); i++) {
		snprintf(try, sizeof(try), cands[i], self, name);
		if (access(try, R_OK) == 0)
			return realpath(try, NULL);
	}
	return NULL;
}

char *lk_launch_find_preload(void)
{
	const char *env = getenv("LEAKSCOPE_PRELOAD");
	if (env)
		return strdup(env);
	return beside_program("libleakscope.so");
}

char *lk_launch_find_attach_library(void)
{
	const char *env = getenv("LEAKSCOPE_PRELOAD");
	const char *slash = env ? strrchr(env, '/') : NULL;
	char *path = NULL;
	if (slash && asprintf(&path, "%.*s/libleakscope-attach.so", (int)(slash - env), env) > 0 &&
	    access(path, R_OK) == 0)
		return path;
	free(path);
	return beside_program("libleakscope-attach.so");
}

void lk_launch_take_signals(struct lk_launch_signals *saved)
{
	struct sigaction ign = {.sa_handler = SIG_IGN};
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &saved->mask);
	sigaction(SIGINT, &ign, &saved->intr);
	sigaction(SIGQUIT, &ign, &saved->quit);
	sigaction(SIGPIPE, &ign, &saved->pipe);
	sigaction(SIGTSTP, &ign, &saved->tstp);
}

static void restore_signals(const struct lk_launch_signals *sig)
{
	sigaction(SIGINT, &sig->intr, NULL);
	sigaction(SIGQUIT, &sig->quit, NULL);
	sigaction(SIGPIPE, &sig->pipe, NULL);
	sigaction(SIGTSTP, &sig->tstp, NULL);
	sigprocmask(SIG_SETMASK, &sig->mask, NULL);
}

static void child_exec(const char *path, char *const argv[], const char *preload,
		       const char *socket_path, int max_frames,
		       const struct lk_launch_signals *sig, int report_fd)
{
	const char *old = getenv("LD_PRELOAD");
	char *pre = malloc(strlen(preload) + (old ? strlen(old) : 0) + 2);
	char frames[16];
	if (pre) {
		strcpy(pre, preload);
		if (old && *old) {
			strcat(pre, ":");
			strcat(pre, old);
		}
		setenv("LD_PRELOAD", pre, 1);
	}
	snprintf(frames, sizeof(frames), "%d", max_frames);
	setenv(LK_ENV_SOCKET, socket_path, 1);
	setenv(LK_ENV_FRAMES, frames, 1);
	restore_signals(sig);
	execv(path, argv);
	int e = errno;
	if (write(report_fd, &e, sizeof(e)) != (ssize_t)sizeof(e)) {
		/* the parent then sees a plain exit 127 */
	}
	_exit(127);
}

pid_t lk_launch_spawn(const char *path, char *const argv[], const char *preload,
		      const char *socket_path, int max_frames,
		      const struct lk_launch_signals *sig, int *exit_code)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (pid == 0)
		child_exec(path, argv, preload, socket_path, max_frames, sig, p[1]);
	close(p[1]);
	int e = 0;
	ssize_t n = read(p[0], &e, sizeof(e));
	close(p[0]);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		*exit_code = e == ENOENT ? LK_LAUNCH_NOT_FOUND : LK_LAUNCH_NOT_EXEC;
		return lk_error_set(-e, "cannot run '%s': %s", path, strerror(e));
	}
	return pid;
}
