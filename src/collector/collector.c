/* collector.c - control socket, sessions and their ends (see collector.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "collector/collector.h"
#include "collector/exitcall.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static int push(struct lk_session ***arr, size_t *n, size_t *cap, struct lk_session *s)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct lk_session **a = realloc(*arr, nc * sizeof(*a));
		if (!a)
			return -ENOMEM;
		*arr = a;
		*cap = nc;
	}
	(*arr)[(*n)++] = s;
	return 0;
}

int lk_collector_open(struct lk_collector *c)
{
	memset(c, 0, sizeof(*c));
	c->listen_fd = -1;
	c->child_fd = -1;
	c->follow = 1;
	const char *tmp = getenv("TMPDIR");
	char buf[256];
	snprintf(buf, sizeof(buf), "%s/leakscope-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(buf))
		return -errno;
	c->dir = strdup(buf);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/control", buf) >= (int)sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	c->socket_path = strdup(sa.sun_path);
	c->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (c->listen_fd < 0 || bind(c->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(c->listen_fd, 128) != 0)
		return -errno;
	return 0;
}

void lk_collector_close(struct lk_collector *c)
{
	for (size_t i = 0; i < c->n_running; i++)
		lk_session_free(c->running[i]);
	for (size_t i = 0; i < c->n_ended; i++)
		lk_session_free(c->ended[i]);
	free(c->running);
	free(c->ended);
	if (c->listen_fd >= 0)
		close(c->listen_fd);
	if (c->child_fd >= 0)
		close(c->child_fd);
	for (size_t i = 0; i < c->n_conns; i++)
		close(c->conns[i].fd);
	for (size_t i = 0; i < c->n_born; i++)
		free(c->born[i].command);
	free(c->born);
	if (c->socket_path)
		unlink(c->socket_path);
	if (c->dir)
		rmdir(c->dir);
	free(c->socket_path);
	free(c->dir);
	memset(c, 0, sizeof(*c));
	c->listen_fd = -1;
	c->child_fd = -1;
}

struct lk_session *lk_collector_find(struct lk_collector *c, pid_t pid)
{
	for (size_t i = 0; i < c->n_running; i++)
		if (c->running[i]->pid == pid)
			return c->running[i];
	return NULL;
}

/* Move running[i] to the ended list (or free it: an image replaced by exec). */
static void finish(struct lk_collector *c, size_t i, enum lk_session_state how)
{
	struct lk_session *s = c->running[i];
	c->running[i] = c->running[--c->n_running];
	s->state = how;
	lk_session_drain(s, 1);
	lk_session_detach(s);
	if (how == LK_SESSION_EXECED) { /* replaced by a traced image */
		lk_session_free(s);
		return;
	}
	/* An execve that never returned replaced the image, but the new one
	 * did not announce itself (static, or LD_PRELOAD removed): nothing was
	 * leaked, and the new program cannot be reported. */
	if (s->exec_pending) {
		s->state = LK_SESSION_EXECED;
		lk_live_release(&s->live);
		lk_live_init(&s->live);
	}
	s->order = ++c->ended_seq;
	if (s->pidfd >= 0) {
		close(s->pidfd);
		s->pidfd = -1;
	}
	if (push(&c->ended, &c->n_ended, &c->cap_ended, s) != 0)
		lk_session_free(s);
}

static struct lk_born *find_born(struct lk_collector *c, pid_t pid)
{
	for (size_t i = 0; i < c->n_born; i++)
		if (c->born[i].pid == pid && !c->born[i].ended)
			return &c->born[i];
	return NULL;
}

void lk_collector_exited(struct lk_collector *c, pid_t pid, int status)
{
	for (size_t i = 0; i < c->n_running; i++)
		if (c->running[i]->pid == pid) {
			c->running[i]->wait_status = status;
			c->running[i]->has_status = 1;
			finish(c, i, LK_SESSION_EXITED);
			return;
		}
	struct lk_born *b = find_born(c, pid);
	if (b) {
		b->ended = 1;
		b->status = status;
	}
}

void lk_collector_born(struct lk_collector *c, pid_t pid, pid_t parent)
{
	struct lk_born *a = realloc(c->born, (c->n_born + 1) * sizeof(*a));
	if (!a)
		return;
	c->born = a;
	const struct lk_session *p = lk_collector_find(c, parent);
	const char *cmd = p ? (p->cmdline ? p->cmdline : p->comm) : "?";
	c->born[c->n_born++] = (struct lk_born){.pid = pid, .command = strdup(cmd)};
}

/* pid announced itself: it is no longer only born. */
static void announced(struct lk_collector *c, pid_t pid)
{
	struct lk_born *b = find_born(c, pid);
	if (b) {
		free(b->command);
		*b = c->born[--c->n_born];
	}
}

/* The first message of a connection: a hello with the region's memfd, or
 * an exit call-back with two descriptors (common/shm.h). Returns its size,
 * or a negative code with no descriptor left open. */
union message {
	struct lk_hello hello;
	struct lk_exit_hello exit;
	struct lk_release release;
};

static ssize_t receive(int fd, union message *m, int fds[2], pid_t *peer)
{
	struct iovec iov = {.iov_base = m, .iov_len = sizeof(*m)};
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf)};
	ssize_t n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return -EAGAIN;
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	size_t n_fds = cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS
		? (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int) : 0;
	fds[0] = fds[1] = -1;
	if (n_fds)
		memcpy(fds, CMSG_DATA(cm), (n_fds > 2 ? 2 : n_fds) * sizeof(int));
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int ok = n >= (ssize_t)sizeof(uint64_t) &&
		 (n_fds >= 1 || m->release.magic == LK_RELEASE_MAGIC) &&
		 getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0;
	if (!ok) {
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		return -EPROTO;
	}
	*peer = cred.pid;
	return n;
}

static void accept_hello(struct lk_collector *c, int fd, const struct lk_hello *hello,
			 int memfd, pid_t peer)
{
	struct lk_session *s = NULL;
	int follow = c->follow || (peer == c->root && !(hello->flags & LK_SHM_FORKED) &&
				   !lk_collector_find(c, peer) && c->announced == 0);
	if (follow && lk_session_open(&s, memfd, hello, peer) == 0) {
		s->on_mark = c->on_mark;
		s->mark_ctx = c->mark_ctx;
		s->keep_marks = c->keep_marks;
		for (size_t i = 0; i < c->n_running; i++)
			if (c->running[i]->pid == peer) {
				finish(c, i, LK_SESSION_EXECED);
				break;
			}
		s->pidfd = (int)syscall(SYS_pidfd_open, peer, 0);
		if (push(&c->running, &c->n_running, &c->cap_running, s) != 0) {
			lk_session_free(s);
			s = NULL;
		}
	}
	if (s) {
		s->want_why = c->want_why;
		announced(c, s->pid);
		c->announced++;
		if (c->on_announce)
			c->on_announce(s, c->ctx);
		char ack = s->exit_call ? LK_ACK_SELF_SCAN : LK_ACK_OK;
		if (write(fd, &ack, 1) != 1) {
			/* it died before hearing us: its pidfd tells the rest */
		}
	}
}

/* A process of ours is handed over (common/shm.h, struct lk_release): the
 * asker and the process must be ours (announced, or seen being born: a
 * vfork child shares its parent's interposer without announcing itself). */
static void accept_release(struct lk_collector *c, const struct lk_release *m, pid_t peer)
{
	pid_t pid = (pid_t)m->pid;
	struct lk_session *s = lk_collector_find(c, pid);
	if ((!lk_collector_find(c, peer) && !find_born(c, peer)) || (s && s->handover) ||
	    (!s && !find_born(c, pid)))
		return;
	if (!c->on_release || c->on_release(pid, c->ctx) != 0 || !s)
		return;
	s->handover = m->reason == LK_RELEASE_PRIVILEGED ? LK_RELEASE_PRIVILEGED
							  : LK_RELEASE_TRACER;
	if (m->reason == LK_RELEASE_PRIVILEGED) {
		free(s->handover_path);
		s->handover_path = strndup(m->path, sizeof(m->path) - 1);
	}
	if (s->scan_wanted) {
		s->exit_call = 1;
		atomic_store(&s->view.hdr->exit_call, 1);
	}
}

/* Serve a connection's message; -EAGAIN when it has not come yet. */
static int accept_one(struct lk_collector *c, int fd)
{
	union message m;
	int fds[2];
	pid_t peer = 0;
	ssize_t n = receive(fd, &m, fds, &peer);
	if (n == -EAGAIN)
		return -EAGAIN;
	if (n == (ssize_t)sizeof(m.hello) && m.hello.magic == LK_SHM_MAGIC) {
		accept_hello(c, fd, &m.hello, fds[0], peer);
	} else if (n == (ssize_t)sizeof(m.release) && m.release.magic == LK_RELEASE_MAGIC) {
		accept_release(c, &m.release, peer);
		char done = 1;
		if (write(fd, &done, 1) != 1) {
			/* it is gone: nothing to tell */
		}
	} else if (n == (ssize_t)sizeof(m.exit) && m.exit.magic == LK_EXIT_MAGIC && fds[1] >= 0) {
		struct lk_session *s = lk_collector_find(c, peer);
		if (s && s->exit_call && !s->exit_called) /* once: it ends */
			lk_exitcall_serve(s, &m.exit, fds[0], fds[1]);
		char done = 1;
		if (write(fd, &done, 1) != 1) {
			/* it is gone: nothing to tell */
		}
	}
	for (int i = 0; n >= 0 && i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* New connections: served at once when their message is there, else kept
 * and polled (a client may be slow to send - traced by strace, or waiting
 * on its own full ring - and nothing waits for it meanwhile). */
static void accept_all(struct lk_collector *c)
{
	for (;;) {
		int fd = accept4(c->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			return;
		if (accept_one(c, fd) != -EAGAIN || c->n_conns == LK_CONNS_MAX) {
			close(fd);
			continue;
		}
		c->conns[c->n_conns++] = (struct lk_conn){.fd = fd, .since_ms = now_ms()};
	}
}

/* Kept connections that became readable, or waited too long. */
static void serve_conns(struct lk_collector *c, const struct pollfd *fds)
{
	uint64_t now = now_ms();
	size_t kept = 0;
	for (size_t i = 0; i < c->n_conns; i++) {
		struct lk_conn k = c->conns[i];
		int waiting = !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)) ||
			      accept_one(c, k.fd) == -EAGAIN;
		if (waiting && now - k.since_ms < LK_CONN_WAIT_MS)
			c->conns[kept++] = k;
		else
			close(k.fd);
	}
	c->n_conns = kept;
}

int lk_collector_add_source(struct lk_collector *c, const struct lk_poll_source *src)
{
	if (c->n_sources == LK_POLL_SOURCES)
		return -ENOSPC;
	c->sources[c->n_sources++] = *src;
	return 0;
}

/* Empty the signalfd: the caller reaps every child that changed state. */
static void drain_child_fd(int fd)
{
	struct signalfd_siginfo si[16];
	while (fd >= 0 && read(fd, si, sizeof(si)) > 0) {
	}
}

uint64_t lk_collector_poll(struct lk_collector *c, int timeout_ms)
{
	size_t n = c->n_running, n_conns = c->n_conns, k = n + 2 + n_conns;
	size_t first[LK_POLL_SOURCES + 1];
	struct pollfd *fds = calloc(k + LK_POLL_SOURCES * LK_POLL_SOURCE_FDS, sizeof(*fds));
	if (!fds)
		return 0;
	fds[0] = (struct pollfd){.fd = c->listen_fd, .events = POLLIN};
	for (size_t i = 0; i < n; i++)
		fds[i + 1] = (struct pollfd){.fd = c->running[i]->pidfd, .events = POLLIN};
	fds[n + 1] = (struct pollfd){.fd = c->child_fd, .events = POLLIN};
	for (size_t i = 0; i < n_conns; i++)
		fds[n + 2 + i] = (struct pollfd){.fd = c->conns[i].fd, .events = POLLIN};
	for (size_t i = 0; i < c->n_sources; i++) {
		first[i] = k;
		k += c->sources[i].fill(c->sources[i].ctx, fds + k, LK_POLL_SOURCE_FDS);
	}
	first[c->n_sources] = k;
	poll(fds, k, timeout_ms);
	drain_child_fd(c->child_fd);
	uint64_t events = 0;
	for (size_t i = 0; i < c->n_running; i++)
		events += lk_session_drain(c->running[i], 0);
	/* ends, from the back so indices stay valid as finish() swaps */
	for (size_t i = n; i-- > 0;) {
		struct lk_session *s = c->running[i];
		if (s->pidfd < 0 || (fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR)))
			if (s->pid != c->root || s->pidfd < 0)
				finish(c, i, LK_SESSION_EXITED);
	}
	serve_conns(c, fds + n + 2);
	accept_all(c);
	for (size_t i = 0; i < c->n_sources; i++)
		c->sources[i].dispatch(c->sources[i].ctx, fds + first[i], first[i + 1] - first[i]);
	free(fds);
	return events;
}
