/*
 * watch_target.c - the trace `leakscope watch` reads: a path given as it
 * is, or a pid turned into the trace its recording writes by asking the
 * recording's control socket `identify` (docs/control.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/watch.h"
#include "common/error.h"
#include "control/client.h"

#define CALL_MS 5000

static int is_pid(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return *s && !*end && v > 0;
}

/* The path of "trace PID PATH" in answer for pid. 0 or -1. */
static int trace_of(const char *answer, long pid, char *path, size_t size)
{
	const char *first = NULL;
	for (const char *line = answer; line && *line;) {
		const char *end = strchr(line, '\n');
		int n = end ? (int)(end - line) : (int)strlen(line), at = 0;
		long p;
		char buf[4200];
		snprintf(buf, sizeof(buf), "%.*s", n, line);
		if (sscanf(buf, "trace %ld %n", &p, &at) == 1 && at) {
			if (p == pid) {
				snprintf(path, size, "%s", buf + at);
				return 0;
			}
			if (!first)
				first = line + at;
		}
		line = end ? end + 1 : NULL;
	}
	if (!first)
		return -1;
	/* a pid the recording traces but writes no trace for: its root's */
	size_t n = strcspn(first, "\n");
	snprintf(path, size, "%.*s", (int)n, first);
	return 0;
}

int lk_watch_target(const char *target, char *path, size_t size)
{
	struct stat st;
	if (!is_pid(target) || stat(target, &st) == 0) {
		snprintf(path, size, "%s", target);
		return 0;
	}
	struct lk_control_target t;
	char *body = NULL;
	size_t len;
	int rc = lk_control_find(target, &t);
	if (rc == 0)
		rc = lk_control_call(t.socket, "identify", CALL_MS, &body, &len);
	if (rc) {
		lk_cli_error("watch: %s", *lk_error_detail() ? lk_error_detail() : lk_cli_errtext(rc));
		return 1;
	}
	rc = trace_of(body, strtol(target, NULL, 10), path, size);
	free(body);
	if (rc) {
		lk_cli_error("watch: the recording of pid %s writes no trace (a 'leakscope run'; "
			     "'leakscope record' and 'leakscope attach' write one)", target);
		return 1;
	}
	return 0;
}

int lk_watch_recording(const char *path)
{
	struct lk_control_target t;
	return lk_control_find(path, &t) == 0;
}
