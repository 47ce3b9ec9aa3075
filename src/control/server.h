/*
 * server.h - the control socket of a running recording, served from the
 * collector's loop (an lk_poll_source): it never blocks the recorder. Every
 * connection is non-blocking, sends one request line within
 * LK_CONTROL_READ_MS and must read its answer within LK_CONTROL_WRITE_MS, or
 * is dropped; at most LK_CONTROL_CLIENTS are served at once. Only processes
 * of our own user may talk to it (the directory is private, the socket 0600,
 * and SO_PEERCRED is checked on every connection).
 *
 * What the requests do is the host's business (leakscope run, record):
 * it passes lk_control_ops. An op returns 0 or a negative code with
 * lk_error_set() detail, which becomes the "error" answer. A NULL op answers
 * "not supported by this recording".
 */
#ifndef LK_CONTROL_SERVER_H
#define LK_CONTROL_SERVER_H

#include <stdio.h>
#include <sys/types.h>

#include "control/protocol.h"

struct pollfd;

#define LK_CONTROL_CLIENTS 16
#define LK_CONTROL_READ_MS 5000
#define LK_CONTROL_WRITE_MS 10000

struct lk_control_ops {
	const char *kind;   /* "run", "record": named in identify's answer */
	/* identify: write "trace PID PATH" and "process PID" lines */
	int (*identify)(void *ctx, FILE *out);
	int (*mark)(void *ctx, int snapshot, const char *text);
	int (*window)(void *ctx, int on);     /* start (1) / stop (0) recording */
	/* check: req->pid 0 = every traced process; write the report to out */
	int (*check)(void *ctx, const struct lk_control_request *req, FILE *out);
	/* detach: an attach lets the process go (answered once it is done) */
	int (*detach)(void *ctx);
};

struct lk_control_server;

/* Create the socket in the private directory (rundir.h). Returns 0, or a
 * negative code with lk_error_set() detail. */
int lk_control_server_open(struct lk_control_server **out, const struct lk_control_ops *ops,
			   void *ctx);
/* Close every connection, remove the socket. */
void lk_control_server_close(struct lk_control_server *s);
const char *lk_control_server_path(const struct lk_control_server *s);

/* 1 while an answer is still being sent (poll again before closing). */
int lk_control_server_answering(const struct lk_control_server *s);

/* The two halves of an lk_poll_source (collector.h); ctx is the server. */
size_t lk_control_server_fill(void *server, struct pollfd *fds, size_t max);
void lk_control_server_dispatch(void *server, const struct pollfd *fds, size_t n);

#endif
