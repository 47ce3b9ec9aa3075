/*
 * main.c - the leakscope program: a table of subcommands (git style), each
 * in its own cmd_<name>.c, plus top-level help, and the check at exit
 * that what was printed on standard output was written.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/hugeheap.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	int analysis;   /* reads a whole trace or eventlog: its heap in huge pages */
	int failure;    /* its status when it fails (standard output not written) */
};

static const struct command commands[] = {
	{"run", cmd_run, "run a program and report the memory it leaked", 0,
	 LK_EXIT_FAILURE},
	{"record", cmd_record, "run a program and write a trace of its heap while it runs", 0,
	 LK_EXIT_FAILURE},
	{"dump", cmd_dump, "print every record of a trace file", 1, 1},
	{"eventlog", cmd_eventlog, "report on a GHC eventlog heap profile", 1, 1},
	{"mark", cmd_mark, "add a marker to a running recording", 0, 1},
	{"snapshot", cmd_snapshot, "take a named snapshot in a running recording", 0, 1},
	{"start", cmd_start, "start the recorded window of a running recording", 0, 1},
	{"stop", cmd_stop, "stop the recorded window of a running recording", 0, 1},
	{"check", cmd_check, "stop a running program, report what it lost now, resume it", 0, 1},
	{"report", cmd_report, "report on a trace: peak, leaks of a window, growing sites", 1, 1},
	{"diff", cmd_diff, "what each allocation site added and removed between two points", 1, 1},
	{NULL, NULL, NULL, 0, 0},
};

void lk_cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("leakscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

long lk_cli_number(const char *cmd, const char *opt, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		lk_cli_error("%s: %s wants a number from %ld to %ld, not '%s'", cmd, opt, lo, hi, s);
		return -1;
	}
	return v;
}

/* The status of a failure to write standard output. */
static int write_failure = 1;

/* At exit, what stdio still holds for standard output (a help text) is
 * written, and a failure is said and ends the program with the command's
 * failure status, as coreutils do: `leakscope --help > /dev/full` does
 * not succeed. Reports have their own stream (output.c). */
static void check_stdout(void)
{
	int err = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;
	if (!err)
		return;
	lk_cli_error("cannot write 'standard output': %s", lk_cli_errtext(-err));
	_exit(write_failure);
}

static void usage(FILE *out)
{
	fputs("usage: leakscope COMMAND [OPTIONS] [ARGS]\n\n"
	      "leakscope finds memory leaks of unmodified Linux programs and shows\n"
	      "where memory goes over time.\n\ncommands:\n", out);
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fputs("\n'leakscope COMMAND --help' tells more about one command.\n", out);
}

int main(int argc, char **argv)
{
	atexit(check_stdout);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("leakscope 0.1");
		return 0;
	}
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name)) {
			if (c->analysis)
				lk_hugeheap_enable();
			write_failure = c->failure;
			return c->run(argc - 1, argv + 1);
		}
	lk_cli_error("'%s' is not a command; see 'leakscope --help'", argv[1]);
	return 2;
}
