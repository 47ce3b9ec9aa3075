/* protocol.c - parse control requests (see protocol.h). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "control/protocol.h"

int lk_control_text_check(const char *text)
{
	size_t n = strlen(text);
	if (n == 0)
		return lk_error_set(LK_EUSAGE, "the text is empty");
	if (n > LK_CONTROL_TEXT_MAX)
		return lk_error_set(LK_EUSAGE, "the text is %zu bytes long, at most %d are allowed",
				    n, LK_CONTROL_TEXT_MAX);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
			return lk_error_set(LK_EUSAGE, "the text holds a control character "
					    "(byte %zu); it must be one printable line", i);
	return 0;
}

/* The word at *p (space-separated), NUL-terminated; *p moves past it. */
static char *word(char **p)
{
	while (**p == ' ')
		(*p)++;
	if (!**p)
		return NULL;
	char *w = *p;
	while (**p && **p != ' ')
		(*p)++;
	if (**p)
		*(*p)++ = 0;
	return w;
}

static int parse_check(char *rest, struct lk_control_request *req)
{
	char *w;
	while ((w = word(&rest))) {
		if (!strcmp(w, "json") || !strcmp(w, "text")) {
			req->json = !strcmp(w, "json");
			continue;
		}
		if (!strcmp(w, "why") || !strcmp(w, "full") || !strcmp(w, "color")) {
			*(w[0] == 'w' ? &req->why : w[0] == 'f' ? &req->full : &req->color) = 1;
			continue;
		}
		char *end;
		if (!strncmp(w, "top=", 4)) {
			req->top = strtol(w + 4, &end, 10);
			if (*end || end == w + 4 || req->top < 0 || req->top > 1000000000)
				return lk_error_set(LK_EUSAGE, "check: bad count '%.40s'", w);
			req->top_given = 1;
			continue;
		}
		long pid = strtol(w, &end, 10);
		if (*end || pid <= 0 || pid > 0x3fffffff || req->pid)
			return lk_error_set(LK_EUSAGE, "check takes [text|json] [why] [full] [color] "
					    "[top=N] [PID], not '%.40s'",
					    w);
		req->pid = (pid_t)pid;
	}
	return 0;
}

int lk_control_parse(char *line, struct lk_control_request *req)
{
	memset(req, 0, sizeof(*req));
	char *rest = line;
	char *cmd = word(&rest);
	if (!cmd)
		return lk_error_set(LK_EUSAGE, "empty request");
	int has_rest = *rest != 0;
	if (!strcmp(cmd, "mark") || !strcmp(cmd, "snapshot")) {
		req->cmd = !strcmp(cmd, "mark") ? LK_CTL_MARK : LK_CTL_SNAPSHOT;
		req->text = rest;
		return lk_control_text_check(rest);
	}
	if (!strcmp(cmd, "check")) {
		req->cmd = LK_CTL_CHECK;
		return parse_check(rest, req);
	}
	static const struct { const char *name; enum lk_control_cmd cmd; } plain[] = {
		{"identify", LK_CTL_IDENTIFY}, {"start", LK_CTL_START}, {"stop", LK_CTL_STOP},
		{"detach", LK_CTL_DETACH},
	};
	for (size_t i = 0; i < sizeof(plain) / sizeof(*plain); i++)
		if (!strcmp(cmd, plain[i].name)) {
			req->cmd = plain[i].cmd;
			return has_rest ? lk_error_set(LK_EUSAGE, "%s takes no argument", cmd) : 0;
		}
	return lk_error_set(LK_EUSAGE, "unknown request '%.40s'", cmd);
}
