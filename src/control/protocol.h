/*
 * protocol.h - the control protocol of a running recording (docs/control.md):
 * one request line per connection, one answer.
 *
 *   request:  identify | mark TEXT | snapshot NAME | start | stop | detach
 *             | check [text|json] [why] [full] [color] [top=N] [PID]
 *                                                (then "\n")
 *   answer:   "ok LEN\n" and LEN bytes of body, or "error MESSAGE\n"
 *
 * Requests are at most LK_CONTROL_LINE_MAX bytes with the newline; texts are
 * one line of printable characters (UTF-8 allowed), at most
 * LK_CONTROL_TEXT_MAX bytes.
 */
#ifndef LK_CONTROL_PROTOCOL_H
#define LK_CONTROL_PROTOCOL_H

#include <stddef.h>
#include <sys/types.h>

#define LK_CONTROL_VERSION 1
#define LK_CONTROL_LINE_MAX 1024
#define LK_CONTROL_TEXT_MAX 495  /* as a program's leakscope_mark text */
#define LK_CONTROL_ANSWER_MAX (256u << 20) /* bytes of body a client accepts */

enum lk_control_cmd {
	LK_CTL_IDENTIFY,
	LK_CTL_MARK,
	LK_CTL_SNAPSHOT,
	LK_CTL_START,
	LK_CTL_STOP,
	LK_CTL_CHECK,
	LK_CTL_DETACH,
};

struct lk_control_request {
	enum lk_control_cmd cmd;
	const char *text;   /* mark, snapshot: points into the parsed line */
	int json;           /* check */
	int why;            /* check: say what keeps reachable groups */
	int full;           /* check, text: the start-up frames too */
	int color;          /* check, text: ANSI colours */
	int top_given;      /* check, text: top was said */
	long top;           /* ... groups per process (0: all) */
	pid_t pid;          /* check: one process, 0 = every process */
};

/* Parse one request (line without its newline, modified in place).
 * Returns 0, or LK_EUSAGE with lk_error_set() detail. */
int lk_control_parse(char *line, struct lk_control_request *req);

/* 0 if text may be a mark or snapshot name, else LK_EUSAGE with detail. */
int lk_control_text_check(const char *text);

#endif
