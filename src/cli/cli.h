/*
 * cli.h - the subcommands of the leakscope program and what they share:
 * messages to the user are printed here (src/cli/) and only here.
 */
#ifndef LK_CLI_H
#define LK_CLI_H

#include <stdio.h>

#include "common/files.h"

/* Exit codes of leakscope itself (the program's own status passes through). */
#define LK_EXIT_FAILURE 125
/* `run`: the program succeeded but leaked (LeakSanitizer's convention). */
#define LK_EXIT_LEAKS 23

int cmd_run(int argc, char **argv);
int cmd_eventlog(int argc, char **argv);
/* cmd_control.c: requests to a running recording */
int cmd_mark(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* "leakscope: " + message + newline on stderr. */
void lk_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A whole number in [lo, hi] given to option opt of command cmd, or -1
 * after a message. */
long lk_cli_number(const char *cmd, const char *opt, const char *s, long lo, long hi);

/* output.c: lk_error_name() with a lowercase first letter (a static buffer). */
const char *lk_cli_errtext(int code);
/* Open path for writing a report ("-" or NULL: standard output; a new
 * file gets 0666 less the umask, an existing one is written over in
 * place; never through another user's symbolic link: common/files.h),
 * printing why it failed. One report stream is open at a time. */
FILE *lk_cli_open_out(const char *path);
/* Standard error as the report stream (run's default). */
FILE *lk_cli_open_stderr(void);
/* Flush and close the report stream; print "cannot write 'PATH': CAUSE"
 * and return 1 when rc (the writer's) or a write failed, else 0. */
int lk_cli_close_out(FILE *f, int rc);
/* Open a file the user named for reading: a regular file, or with
 * LK_FILE_PIPE a FIFO or pipe too (common/files.h), which reads as ended
 * after LK_CLI_PIPE_MAX bytes (an endless writer); NULL after printing
 * "cannot open 'PATH': CAUSE". */
#define LK_CLI_PIPE_MAX (4ull << 30)
FILE *lk_cli_open_in(const char *path, int flags);
/* Close it; 1 after saying so when a pipe was read up to its limit. */
int lk_cli_close_in(FILE *f, const char *path);

/* options.c: "--name VALUE", "--name=VALUE" (long names) or "-o VALUE" at
 * argv[*i] (advanced past a separate value): the value; NULL when argv[*i]
 * is not name, with *missing set when the value is not there. */
const char *lk_cli_value(int argc, char **argv, int *i, const char *name, int *missing);
/* "leakscope CMD: " + message + a pointer to --help on stderr; returns 2. */
int lk_cli_usage_error(const char *cmd, const char *fmt, const char *arg);
/* The index of v in names (NULL-terminated), or -1. */
int lk_cli_choice(const char *v, const char *const *names);
/* A count from 0 to 10^9 (--top), or -1. */
int lk_cli_count(const char *s);
/* The options of every report command: -o FILE and --top N. 1 when
 * argv[*i] was one (taken), 2 after a usage error (printed), 0 when not
 * (*missing set when its value is missing). */
int lk_cli_output_option(const char *cmd, int argc, char **argv, int *i, const char **out_path,
			 int *top, int *missing);
/* Write a report with write(out, arg) (0 or a negative errno) to out_path;
 * when NULL, to INPUT + suffix (said on stderr), or standard output when
 * suffix is NULL too. 0, or 1 after a message. */
int lk_cli_write_report(const char *input, const char *out_path, const char *suffix,
			int (*write)(FILE *out, void *arg), void *arg);

/* Whether a command frees what it built before it returns, to exit: only
 * in builds checked for leaks. Otherwise the system takes the memory back
 * at once, where freeing a report's sites and symbols one block at a time
 * took 5% of its run (git's UNLEAK, clang's -disable-free). */
#if defined(__SANITIZE_ADDRESS__)
#define LK_CLI_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define LK_CLI_FREE_AT_EXIT 1
#endif
#endif
#ifndef LK_CLI_FREE_AT_EXIT
#define LK_CLI_FREE_AT_EXIT 0
#endif

#endif
