/*
 * liveness.c - is the collector still there? A producer waiting on a full
 * ring asks (ring.c); when the collector is gone - killed, crashed, out of
 * memory - recording stops, the process says so once on its stderr and
 * runs on as if it had never been traced. Without this, it would wait for
 * ever on the first full ring.
 *
 * The collector is known by its pid (the peer of the control socket when
 * it acknowledged our region) and its start time (/proc/PID/stat, field
 * 22), so that a pid used again by another process after the collector
 * died is not taken for it. No descriptor is kept open: the program may
 * close or reuse any. Where /proc cannot be read, the pid alone answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "preload/preload.h"

static pid_t collector_pid;
static uint64_t collector_start;

/* v in decimal at out, NUL-terminated (no stdio in the interposer). */
static void format_uint(char *out, uint64_t v)
{
	char digits[24];
	int n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		*out++ = digits[--n];
	*out = 0;
}

/* Field 22 of /proc/pid/stat (start time in clock ticks), or 0. */
static uint64_t start_time(pid_t pid)
{
	char path[40] = "/proc/", buf[1024];
	format_uint(path + 6, (uint64_t)pid);
	strcat(path, "/stat");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	const char *p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	uint64_t t = 0;
	for (p = p ? p + 1 : ""; *p >= '0' && *p <= '9'; p++)
		t = t * 10 + (uint64_t)(*p - '0');
	return t;
}

LK_HIDDEN void lk_liveness_remember(pid_t collector)
{
	collector_pid = collector;
	collector_start = collector > 0 ? start_time(collector) : 0;
}

LK_HIDDEN int lk_liveness_collector_gone(void)
{
	if (collector_pid <= 0)
		return 0; /* unknown: keep waiting, as before */
	int e = errno;
	int alive = kill(collector_pid, 0) == 0 || errno == EPERM;
	if (alive && collector_start)
		alive = start_time(collector_pid) == collector_start;
	errno = e;
	return !alive;
}

LK_HIDDEN void lk_liveness_stop_recording(void)
{
	int expect = LK_READY;
	if (!atomic_compare_exchange_strong(&lk_state, &expect, LK_OFF))
		return; /* another thread said it */
	char msg[160] = "leakscope: the collector (pid ";
	format_uint(msg + strlen(msg), (uint64_t)collector_pid);
	strcat(msg, ") is gone; pid ");
	format_uint(msg + strlen(msg), (uint64_t)getpid());
	strcat(msg, " runs on unrecorded\n");
	int e = errno;
	if (write(2, msg, strlen(msg)) < 0) {
		/* no stderr: nothing else to tell */
	}
	errno = e;
}
