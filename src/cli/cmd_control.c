/*
 * cmd_control.c - the commands that talk to a running recording over its
 * control socket (docs/control.md): `leakscope mark`, `snapshot`, `start`,
 * `stop` and `check`. They share everything but their request, so they
 * share this file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/error.h"
#include "control/client.h"
#include "control/protocol.h"

#define CALL_MS 10000
#define CHECK_MS 600000 /* a scan of a large heap takes a while */

struct control_cmd {
	const char *name;
	const char *args;   /* after TARGET */
	const char *what;   /* the help's description */
};

static const struct control_cmd cmds[] = {
	{"mark", " TEXT",
	 "Add a marker TEXT to the recording at this point (as leakscope_mark() does\n"
	 "from inside the program). TEXT is one printable line of at most 495 bytes.\n"},
	{"snapshot", " NAME",
	 "Take a named snapshot of the live heap of the recorded processes (as\n"
	 "leakscope_snapshot() does from inside the program).\n"},
	{"start", "",
	 "Start (resume) recording allocation events: the recorded window opens.\n"},
	{"stop", "",
	 "Stop recording allocation events until 'leakscope start': the recorded\n"
	 "window closes (the recording itself goes on).\n"},
	{"check", "",
	 "Stop the recorded process (every thread), scan its memory for blocks that\n"
	 "nothing points to any more, resume it, and print those definitely and\n"
	 "indirectly (and possibly) lost blocks grouped by allocation stack. When\n"
	 "TARGET is a pid, only that process is checked, else every process of the\n"
	 "recording.\n"},
};

static void usage(const struct control_cmd *c, FILE *out)
{
	fprintf(out, "usage: leakscope %s %sTARGET%s\n\n%s\n"
		"TARGET is the trace file a running 'leakscope record' writes, or the pid\n"
		"of a process that 'leakscope record' or 'leakscope run' traces. Only\n"
		"recordings of the same user can be reached (docs/control.md).\n\n"
		"options:\n%s"
		"  -h, --help              this text\n\n"
		"exit status: 0 done; 1 no such recording, it refused, or the output could\n"
		"not be written; 2 usage.\n",
		c->name, strcmp(c->name, "check") ? "" : "[--format text|json] [--why] ", c->args,
		c->what, strcmp(c->name, "check") ? ""
		: "  -f, --format FMT        text (default) or json (docs/json-leaks.md)\n"
		  "      --why               list still reachable and possibly lost groups too, each\n"
		  "                          with what keeps it: the root and the chain of blocks\n");
}

/* Options; returns the index of TARGET or -1 (message printed). */
enum { OPT_WHY = 256 };

static int parse(const struct control_cmd *c, int argc, char **argv, int *json, int *why)
{
	static const struct option longs[] = {
		{"format", required_argument, 0, 'f'},
		{"why", no_argument, 0, OPT_WHY},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	int is_check = !strcmp(c->name, "check"), o;
	optind = 1;
	while ((o = getopt_long(argc, argv, is_check ? "+f:h" : "+h", longs, NULL)) != -1) {
		if (o == 'h') {
			usage(c, stdout);
			exit(0);
		}
		if (o == OPT_WHY && is_check) {
			*why = 1;
			continue;
		}
		if (o == 'f' && is_check && (!strcmp(optarg, "json") || !strcmp(optarg, "text"))) {
			*json = !strcmp(optarg, "json");
			continue;
		}
		if (o == 'f' && is_check)
			lk_cli_error("unknown format '%s' (text or json)", optarg);
		usage(c, stderr);
		return -1;
	}
	int want = 1 + (*c->args != 0);
	if (argc - optind != want) {
		lk_cli_error("%s: %s", c->name, argc - optind < want ? "missing arguments"
							     : "too many arguments");
		usage(c, stderr);
		return -1;
	}
	return optind;
}

static int control(const struct control_cmd *c, int argc, char **argv)
{
	int json = 0, why = 0;
	int at = parse(c, argc, argv, &json, &why);
	if (at < 0)
		return 2;
	const char *target = argv[at], *text = at + 1 < argc ? argv[at + 1] : NULL;
	if (text && lk_control_text_check(text) != 0) {
		lk_cli_error("%s: %s", c->name, lk_error_detail());
		return 2;
	}
	struct lk_control_target t;
	if (lk_control_find(target, &t) != 0) {
		lk_cli_error("%s", lk_error_detail());
		return 1;
	}
	char req[LK_CONTROL_LINE_MAX];
	if (text)
		snprintf(req, sizeof(req), "%s %s", c->name, text);
	else if (t.pid && !strcmp(c->name, "check")) /* the window is the recording's */
		snprintf(req, sizeof(req), "%s%s%s %d", c->name, json ? " json" : "",
			 why ? " why" : "", (int)t.pid);
	else
		snprintf(req, sizeof(req), "%s%s%s", c->name, json ? " json" : "", why ? " why" : "");
	char *body;
	size_t len;
	if (lk_control_call(t.socket, req, text || strcmp(c->name, "check") ? CALL_MS : CHECK_MS,
			    &body, &len) != 0) {
		lk_cli_error("%s: %s", c->name, lk_error_detail());
		return 1;
	}
	FILE *out = lk_cli_open_out("-");
	int status = 1;
	if (out) {
		fwrite(body, 1, len, out);
		status = lk_cli_close_out(out, 0);
	}
	free(body);
	return status;
}

int cmd_mark(int argc, char **argv) { return control(&cmds[0], argc, argv); }
int cmd_snapshot(int argc, char **argv) { return control(&cmds[1], argc, argv); }
int cmd_start(int argc, char **argv) { return control(&cmds[2], argc, argv); }
int cmd_stop(int argc, char **argv) { return control(&cmds[3], argc, argv); }
int cmd_check(int argc, char **argv) { return control(&cmds[4], argc, argv); }
