/* client.c - find a running recording and ask it (see client.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "control/client.h"
#include "control/protocol.h"
#include "control/rundir.h"

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Connect to path; -ECONNREFUSED for the socket of a dead recorder. */
static int dial(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != geteuid()) {
		close(fd);
		return -EPERM; /* not a recorder of ours */
	}
	return fd;
}

/* Wait for fd to be ready for events until deadline. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		struct pollfd p = {.fd = fd, .events = events};
		int n = poll(&p, 1, (int)(left > INT_MAX ? INT_MAX : left));
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* Read the whole answer (the recorder closes after it). */
static int read_all(int fd, int64_t deadline, char **buf, size_t *len)
{
	size_t cap = 4096;
	*len = 0;
	*buf = malloc(cap);
	if (!*buf)
		return -ENOMEM;
	for (;;) {
		int rc = wait_fd(fd, POLLIN, deadline);
		if (rc)
			return rc;
		if (*len + 1 == cap) {
			if (cap > LK_CONTROL_ANSWER_MAX)
				return -EFBIG;
			char *b = realloc(*buf, cap * 2);
			if (!b)
				return -ENOMEM;
			*buf = b;
			cap *= 2;
		}
		ssize_t n = read(fd, *buf + *len, cap - 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	(*buf)[*len] = 0;
	return 0;
}

/* Split "ok LEN\n" + body or "error MESSAGE\n". */
static int unframe(char *raw, size_t n, char **body, size_t *len)
{
	char *nl = memchr(raw, '\n', n);
	if (nl && !strncmp(raw, "error ", 6)) {
		*nl = 0;
		return lk_error_set(LK_EUSAGE, "%s", raw + 6);
	}
	unsigned long long want;
	int head = 0;
	if (!nl || sscanf(raw, "ok %llu\n%n", &want, &head) != 1 || head != nl - raw + 1 ||
	    want != n - (size_t)head)
		return lk_error_set(LK_EFORMAT, "the recorder's answer is malformed or cut short");
	*len = (size_t)want;
	*body = malloc(*len + 1);
	if (!*body)
		return -ENOMEM;
	memcpy(*body, raw + head, *len);
	(*body)[*len] = 0;
	return 0;
}

static int call_fd(int fd, const char *request, int timeout_ms, char **body, size_t *len)
{
	int64_t deadline = now_ms() + timeout_ms;
	size_t n = strlen(request);
	char line[LK_CONTROL_LINE_MAX];
	if (n + 1 > sizeof(line))
		return lk_error_set(LK_EUSAGE, "the request is too long");
	memcpy(line, request, n);
	line[n++] = '\n';
	for (size_t off = 0; off < n;) {
		int rc = wait_fd(fd, POLLOUT, deadline);
		if (rc)
			return rc;
		ssize_t w = send(fd, line + off, n - off, MSG_NOSIGNAL);
		if (w < 0 && errno != EINTR)
			return -errno;
		off += w > 0 ? (size_t)w : 0;
	}
	char *raw = NULL;
	size_t raw_len = 0;
	int rc = read_all(fd, deadline, &raw, &raw_len);
	if (rc == 0)
		rc = unframe(raw, raw_len, body, len);
	free(raw);
	return rc;
}

int lk_control_call(const char *socket, const char *request, int timeout_ms, char **body,
		    size_t *len)
{
	*body = NULL;
	*len = 0;
	int fd = dial(socket);
	if (fd < 0)
		return lk_error_set(fd, "cannot reach the recorder at '%s': %s", socket,
				    strerror(-fd));
	int rc = call_fd(fd, request, timeout_ms, body, len);
	close(fd);
	if (rc < 0 && rc > LK_EFORMAT + 100) /* an errno: the codes below set their detail */
		lk_error_set(rc, "no answer from the recorder at '%s': %s", socket, strerror(-rc));
	return rc;
}

/* Does the identify answer name target (a pid, or a realpath)? */
static int names(const char *answer, pid_t pid, const char *real, pid_t *recorder)
{
	int found = 0;
	for (const char *line = answer; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		char buf[PATH_MAX + 64], path[PATH_MAX];
		int p = 0, at = 0;
		snprintf(buf, sizeof(buf), "%.*s", (int)n, line);
		if (sscanf(buf, "recorder %d", &p) == 1)
			*recorder = p;
		else if (sscanf(buf, "process %d", &p) == 1 && pid && p == pid)
			found = 1;
		else if (sscanf(buf, "trace %d %n", &p, &at) == 1 && at) {
			if (pid && p == pid)
				found = 1;
			if (real && realpath(buf + at, path) && !strcmp(path, real))
				found = 1;
		}
		line = end ? end + 1 : NULL;
	}
	return found;
}

/* Ask the recorder at sock who it is; 1 if it records target. */
static int probe(const char *sock, pid_t pid, const char *real, struct lk_control_target *out)
{
	char *body;
	size_t len;
	int fd = dial(sock);
	if (fd == -ECONNREFUSED) {
		unlink(sock); /* its recorder died */
		return 0;
	}
	if (fd < 0)
		return 0;
	int rc = call_fd(fd, "identify", 5000, &body, &len);
	close(fd);
	if (rc)
		return 0;
	pid_t recorder = 0;
	int found = names(body, pid, real, &recorder);
	free(body);
	if (found) {
		snprintf(out->socket, sizeof(out->socket), "%s", sock);
		out->recorder = recorder;
		out->pid = pid;
	}
	return found;
}

int lk_control_find(const char *target, struct lk_control_target *out)
{
	char dir[256], real[PATH_MAX], *end;
	memset(out, 0, sizeof(*out));
	long pid = strtol(target, &end, 10);
	int is_pid = *target && !*end && pid > 0 && pid < INT_MAX;
	int has_real = !is_pid && realpath(target, real) != NULL;
	if (!is_pid && !has_real)
		return lk_error_set(LK_ENOTFOUND, "no running recording writes '%s': %s", target,
				    strerror(errno));
	int rc = lk_rundir_open(dir, sizeof(dir), 0);
	if (rc == -ENOENT)
		goto none;
	if (rc)
		return rc;
	DIR *d = opendir(dir);
	if (!d)
		goto none;
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char sock[sizeof(out->socket)];
		if (n < 6 || strcmp(e->d_name + n - 5, ".sock") ||
		    snprintf(sock, sizeof(sock), "%s/%s", dir, e->d_name) >= (int)sizeof(sock))
			continue;
		found = probe(sock, is_pid ? (pid_t)pid : 0, has_real ? real : NULL, out);
	}
	closedir(d);
	if (found)
		return 0;
none:
	if (is_pid)
		return lk_error_set(LK_ENOTFOUND, "no running recording records pid %ld; it ended, "
				    "or was started by another user", pid);
	return lk_error_set(LK_ENOTFOUND, "no running recording writes '%s'; it ended, or was "
			    "started by another user", target);
}
