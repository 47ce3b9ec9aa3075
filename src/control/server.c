/* server.c - the control socket of a running recording (see server.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "control/protocol.h"
#include "control/rundir.h"
#include "control/server.h"

struct client {
	int fd;                 /* -1: unused */
	uint64_t deadline;      /* ms, monotonic */
	char in[LK_CONTROL_LINE_MAX];
	size_t in_len;
	char *out;              /* the answer, once the request was handled */
	size_t out_len, out_off;
};

struct lk_control_server {
	int listen_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const struct lk_control_ops *ops;
	void *ctx;
	struct client c[LK_CONTROL_CLIENTS];
};

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int listen_at(struct lk_control_server *s, const char *dir)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%d.sock", dir, (int)getpid()) >=
	    (int)sizeof(sa.sun_path))
		return lk_error_set(-ENAMETOOLONG, "the control socket's path under '%s' is too "
				    "long", dir);
	strcpy(s->path, sa.sun_path);
	unlink(sa.sun_path); /* a socket of a dead process that had our pid */
	s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->listen_fd < 0)
		return lk_error_set(-errno, "cannot create a socket: %s", strerror(errno));
	mode_t old = umask(0177); /* the socket is born 0600 */
	int rc = bind(s->listen_fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc != 0 || chmod(sa.sun_path, 0600) != 0 || listen(s->listen_fd, 16) != 0)
		return lk_error_set(-errno, "cannot listen on '%s': %s", sa.sun_path,
				    strerror(errno));
	return 0;
}

int lk_control_server_open(struct lk_control_server **out, const struct lk_control_ops *ops,
			   void *ctx)
{
	char dir[256];
	*out = NULL;
	int rc = lk_rundir_open(dir, sizeof(dir), 1);
	if (rc)
		return rc;
	struct lk_control_server *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->ops = ops;
	s->ctx = ctx;
	for (size_t i = 0; i < LK_CONTROL_CLIENTS; i++)
		s->c[i].fd = -1;
	if ((rc = listen_at(s, dir)) != 0) {
		if (s->listen_fd >= 0)
			close(s->listen_fd);
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

static void drop(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->out);
	c->fd = -1;
	c->out = NULL;
	c->in_len = c->out_len = c->out_off = 0;
}

void lk_control_server_close(struct lk_control_server *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < LK_CONTROL_CLIENTS; i++)
		drop(&s->c[i]);
	close(s->listen_fd);
	unlink(s->path);
	free(s);
}

const char *lk_control_server_path(const struct lk_control_server *s)
{
	return s->path;
}

size_t lk_control_server_fill(void *server, struct pollfd *fds, size_t max)
{
	struct lk_control_server *s = server;
	size_t n = 0, busy = 0;
	for (size_t i = 0; i < LK_CONTROL_CLIENTS && n < max; i++) {
		struct client *c = &s->c[i];
		if (c->fd < 0)
			continue;
		busy++;
		fds[n++] = (struct pollfd){.fd = c->fd, .events = c->out ? POLLOUT : POLLIN};
	}
	if (busy < LK_CONTROL_CLIENTS && n < max) /* else new ones wait in the backlog */
		fds[n++] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
	return n;
}

/* What a request does; 0 or a negative code with lk_error_set() detail. */
static int perform(struct lk_control_server *s, char *line, FILE *f)
{
	struct lk_control_request req;
	int rc = lk_control_parse(line, &req);
	const struct lk_control_ops *o = s->ops;
	if (rc)
		return rc;
	lk_error_set(0, "%s", "");
	switch (req.cmd) {
	case LK_CTL_IDENTIFY:
		fprintf(f, "leakscope-control %d\nrecorder %d %s\n", LK_CONTROL_VERSION,
			(int)getpid(), o->kind);
		return o->identify ? o->identify(s->ctx, f) : 0;
	case LK_CTL_MARK:
	case LK_CTL_SNAPSHOT:
		if (o->mark)
			return o->mark(s->ctx, req.cmd == LK_CTL_SNAPSHOT, req.text);
		break;
	case LK_CTL_START:
	case LK_CTL_STOP:
		if (o->window)
			return o->window(s->ctx, req.cmd == LK_CTL_START);
		break;
	case LK_CTL_CHECK:
		if (o->check)
			return o->check(s->ctx, &req, f);
		break;
	case LK_CTL_DETACH:
		if (o->detach)
			return o->detach(s->ctx);
		break;
	}
	return lk_error_set(LK_EUSAGE, "'%s' is not supported by this recording (leakscope %s)",
			    line, o->kind);
}

/* Frame an answer into c->out: "ok LEN\n" + body, or "error MESSAGE\n". */
static void respond(struct client *c, int rc, char *body, size_t len)
{
	char *msg = NULL;
	if (rc != 0) {
		const char *d = lk_error_detail();
		if (asprintf(&msg, "error %s\n", *d ? d : lk_error_name(rc)) < 0)
			msg = NULL;
		for (char *p = msg; p && p[1]; p++) /* one line */
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		c->out_len = msg ? strlen(msg) : 0;
	} else if ((msg = malloc(len + 32))) {
		int h = snprintf(msg, 32, "ok %zu\n", len);
		memcpy(msg + h, body, len);
		c->out_len = (size_t)h + len;
	}
	free(body);
	c->out = msg;
	if (!msg) {
		drop(c);
		return;
	}
	c->out_off = 0;
	c->deadline = now_ms() + LK_CONTROL_WRITE_MS;
}

static void answer(struct lk_control_server *s, struct client *c, char *line)
{
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	if (!f) {
		drop(c);
		return;
	}
	int rc = perform(s, line, f);
	fclose(f);
	respond(c, rc, body, len);
}

static void refuse(struct client *c, const char *why)
{
	respond(c, lk_error_set(LK_EUSAGE, "%s", why), NULL, 0);
}

static void readable(struct lk_control_server *s, struct client *c)
{
	ssize_t n = read(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		drop(c);
		return;
	}
	c->in_len += (size_t)n;
	char *nl = memchr(c->in, '\n', c->in_len);
	if (!nl && c->in_len == sizeof(c->in)) {
		refuse(c, "request too long");
		return;
	}
	if (!nl)
		return;
	*nl = 0;
	if (memchr(c->in, 0, (size_t)(nl - c->in))) {
		refuse(c, "the request holds a NUL byte");
		return;
	}
	answer(s, c, c->in);
}

static void writable(struct client *c)
{
	ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		drop(c);
		return;
	}
	c->out_off += (size_t)n;
	if (c->out_off == c->out_len)
		drop(c);
}

int lk_control_server_answering(const struct lk_control_server *s)
{
	for (size_t i = 0; s && i < LK_CONTROL_CLIENTS; i++)
		if (s->c[i].fd >= 0 && s->c[i].out)
			return 1;
	return 0;
}

/* Only our own user: the directory already keeps others out, this makes
 * sure of it (a socket passed on, a permission changed behind our back). */
static int same_user(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
	       cred.uid == geteuid();
}

static void accept_new(struct lk_control_server *s)
{
	for (size_t i = 0; i < LK_CONTROL_CLIENTS; i++) {
		struct client *c = &s->c[i];
		if (c->fd >= 0)
			continue;
		int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			return;
		if (!same_user(fd)) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->deadline = now_ms() + LK_CONTROL_READ_MS;
	}
}

void lk_control_server_dispatch(void *server, const struct pollfd *fds, size_t n)
{
	struct lk_control_server *s = server;
	uint64_t now = now_ms();
	for (size_t k = 0; k < n; k++) {
		if (fds[k].fd == s->listen_fd || !fds[k].revents)
			continue;
		for (size_t i = 0; i < LK_CONTROL_CLIENTS; i++) {
			struct client *c = &s->c[i];
			if (c->fd != fds[k].fd)
				continue;
			if (c->out)
				writable(c);
			else
				readable(s, c);
			break;
		}
	}
	for (size_t i = 0; i < LK_CONTROL_CLIENTS; i++)
		if (s->c[i].fd >= 0 && now > s->c[i].deadline)
			drop(&s->c[i]);
	accept_new(s);
}
