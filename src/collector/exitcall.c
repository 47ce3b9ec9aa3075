/* exitcall.c - scan a process from its exit call-back (exitcall.h). */
#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "collector/exitcall.h"
#include "collector/scan.h"

/* 1 if fd is /proc/PID/name of pid itself, as the exit hook opened it
 * (/proc/self/...). Anything else the process could send - a pipe it
 * never writes to, a file of made-up mappings - would make the collector
 * wait for ever or scan what the process chose. */
static int own_proc_file(int fd, pid_t pid, const char *name)
{
	char link[64], want[64], got[64];
	struct stat st;
	struct statfs fs;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fstatfs(fd, &fs) != 0 ||
	    fs.f_type != PROC_SUPER_MAGIC)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	snprintf(want, sizeof(want), "/proc/%d/%s", (int)pid, name);
	ssize_t n = readlink(link, got, sizeof(got) - 1);
	if (n <= 0)
		return 0;
	got[n] = 0;
	return strcmp(got, want) == 0;
}

int lk_exitcall_serve(struct lk_session *s, const struct lk_exit_hello *h, int mem_fd,
		      int maps_fd)
{
	if (!own_proc_file(mem_fd, s->pid, "mem") || !own_proc_file(maps_fd, s->pid, "maps")) {
		s->exit_called = 1; /* no scan; events still flow back unapplied */
		return -EPERM;
	}
	struct lk_exit_snapshot snap;
	memset(&snap, 0, sizeof(snap));
	snap.tgid = snap.tid = s->pid;
	snap.mem_fd = mem_fd;
	snap.maps_fd = maps_fd;
	/* the caller's registers are on its stack (spilled below h->sp's
	 * frame): the stack pointer is all the scan needs */
	snap.regs.rsp = h->sp;
	snap.at_exit = 1;
	lk_session_drain(s, 0);
	int rc = lk_scan_session(s, &snap);
	s->exit_called = 1;
	return rc;
}
