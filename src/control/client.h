/*
 * client.h - the client side of the control protocol (protocol.h): find the
 * running recording that writes a trace file or records a pid, and ask it
 * one request. Sockets of recorders that died are removed on the way.
 */
#ifndef LK_CONTROL_CLIENT_H
#define LK_CONTROL_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

/* What a recorder said about itself (its identify answer). */
struct lk_control_target {
	char socket[128];       /* its control socket */
	pid_t recorder;
	pid_t pid;              /* the process TARGET named (0: a trace path was given) */
};

/* Find the recording of target: a pid of a traced process, or a trace path
 * (compared by realpath with what each recorder says it writes). Returns 0,
 * LK_ENOTFOUND (detail: "no running recording ..."), or another negative
 * code; detail by lk_error_set(). */
int lk_control_find(const char *target, struct lk_control_target *out);

/* Send request (one line, no newline) to the recorder at socket and read
 * the answer; waits at most timeout_ms. Returns 0 with *body (malloc'ed,
 * NUL-terminated) and *len, or a negative code; an "error" answer is
 * LK_EUSAGE with the recorder's message as detail. */
int lk_control_call(const char *socket, const char *request, int timeout_ms, char **body,
		    size_t *len);

#endif
