/*
 * socket.c - one call to the collector over its control socket: connect,
 * send one message with descriptors (SCM_RIGHTS), wait for its one-byte
 * answer. The announcement of a region (region.c) and the exit call-back
 * (exitcall.c) are such calls. No allocation; the socket is closed before
 * returning, so the program's descriptors are left as they were.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "preload/preload.h"

#define MAX_FDS 2

static int connect_to(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (!path || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s >= 0 && connect(s, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(s);
		s = -1;
	}
	return s;
}

LK_HIDDEN int lk_socket_call(const char *path, const void *msg, size_t len, const int *fds,
			     size_t n_fds, pid_t *peer)
{
	if (n_fds > MAX_FDS)
		return -1;
	int s = connect_to(path);
	if (s < 0)
		return -1;
	struct iovec iov = {.iov_base = (void *)msg, .iov_len = len};
	union {
		char buf[CMSG_SPACE(MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (n_fds) {
		m.msg_control = ctl.buf;
		m.msg_controllen = CMSG_SPACE(n_fds * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(n_fds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, n_fds * sizeof(int));
	}
	unsigned char answer = 0;
	ssize_t r = -1;
	if (sendmsg(s, &m, MSG_NOSIGNAL) == (ssize_t)len)
		while ((r = read(s, &answer, 1)) < 0 && errno == EINTR) {
		}
	struct ucred cred = {0};
	socklen_t cred_len = sizeof(cred);
	if (peer)
		*peer = getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) == 0 ? cred.pid : 0;
	close(s);
	return r == 1 ? answer : -1;
}
