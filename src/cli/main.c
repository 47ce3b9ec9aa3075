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
	const struct lk_cli_cmd *cmd;   /* name, summary, help, options */
	int (*run)(int argc, char **argv);
	int analysis;   /* reads a whole trace or eventlog: its heap in huge pages */
	int failure;    /* its status when it fails (standard output not written) */
};

static const struct command commands[] = {
	{&lk_cli_run, cmd_run, 0, LK_EXIT_FAILURE},
	{&lk_cli_record, cmd_record, 0, LK_EXIT_FAILURE},
	{&lk_cli_attach, cmd_attach, 0, LK_EXIT_FAILURE},
	{&lk_cli_watch, cmd_watch, 1, 1},
	{&lk_cli_dump, cmd_dump, 1, 1},
	{&lk_cli_eventlog, cmd_eventlog, 1, 1},
	{&lk_cli_mark, cmd_mark, 0, 1},
	{&lk_cli_snapshot, cmd_snapshot, 0, 1},
	{&lk_cli_start, cmd_start, 0, 1},
	{&lk_cli_stop, cmd_stop, 0, 1},
	{&lk_cli_check, cmd_check, 0, 1},
	{&lk_cli_detach, cmd_detach, 0, 1},
	{&lk_cli_report, cmd_report, 1, 1},
	{&lk_cli_diff, cmd_diff, 1, 1},
	{NULL, NULL, 0, 0},
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
	fputs("usage: leakscope COMMAND [OPTIONS] [ARGS]\n"
	      "       leakscope help [COMMAND]\n"
	      "       leakscope --version\n\n"
	      "leakscope finds memory leaks of unmodified Linux programs and shows\n"
	      "where memory goes over time.\n\ncommands:\n", out);
	for (const struct command *c = commands; c->cmd; c++)
		fprintf(out, "  %-10s %s\n", c->cmd->name, c->cmd->summary);
	fputs("  help       show the help of a command ('leakscope help run')\n"
	      "  version    show leakscope's version (also --version)\n"
	      "\n"
	      "'leakscope COMMAND --help' and 'leakscope help COMMAND' tell more about one\n"
	      "command; 'man leakscope-COMMAND' tells all. Options that several commands\n"
	      "have mean the same in each: -o/--output FILE, -f/--format FMT, --top N,\n"
	      "-q/--quiet, -h/--help.\n"
	      "\n"
	      "exit status: 2 for a usage error, in every command; the others are the\n"
	      "command's own (its help says them).\n", out);
}

static const struct command *find(const char *name)
{
	for (const struct command *c = commands; c->cmd; c++)
		if (!strcmp(name, c->cmd->name))
			return c;
	return NULL;
}

static int version(void)
{
	puts("leakscope " LK_VERSION);
	return 0;
}

/* leakscope help [COMMAND] */
static int help(int argc, char **argv)
{
	if (argc > 3)
		return lk_cli_usage_error("help", "one command at a time");
	if (argc < 3 || !strcmp(argv[2], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[2], "version"))
		return version();
	const struct command *c = find(argv[2]);
	if (!c)
		return lk_cli_usage_error("help", "'%s' is not a command", argv[2]);
	write_failure = c->failure;
	lk_cli_help(c->cmd, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	atexit(check_stdout);
	if (argc < 2) {
		usage(stderr);
		return LK_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help"))
		return help(argc, argv);
	if (!strcmp(name, "--version") || !strcmp(name, "version"))
		return argc == 2 ? version()
				 : lk_cli_usage_error("version", "it takes no arguments");
	const struct command *c = find(name);
	if (!c) {
		lk_cli_error("'%s' is not a command; see 'leakscope --help'", name);
		return LK_EXIT_USAGE;
	}
	if (c->analysis)
		lk_hugeheap_enable();
	write_failure = c->failure;
	return c->run(argc - 1, argv + 1);
}
