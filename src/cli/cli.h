/*
 * cli.h - the subcommands of the leakscope program and what they share:
 * messages to the user are printed here (src/cli/) and only here.
 */
#ifndef LK_CLI_H
#define LK_CLI_H

#include <stdio.h>

#include "cli/options.h"
#include "common/files.h"

/* What `leakscope --version` says; debian/changelog names the same. */
#define LK_VERSION "0.1"

/* Exit codes of leakscope itself (the program's own status passes through);
 * a usage error is LK_EXIT_USAGE (2, options.h) in every command. */
#define LK_EXIT_FAILURE 125
/* `run`: the program succeeded but leaked (LeakSanitizer's convention). */
#define LK_EXIT_LEAKS 23

/* Each command's description: its help, its options (options.h). */
extern const struct lk_cli_cmd lk_cli_run, lk_cli_record, lk_cli_dump, lk_cli_eventlog,
	lk_cli_mark, lk_cli_snapshot, lk_cli_start, lk_cli_stop, lk_cli_check, lk_cli_report,
	lk_cli_diff, lk_cli_attach, lk_cli_detach, lk_cli_watch;

int cmd_run(int argc, char **argv);
int cmd_eventlog(int argc, char **argv);
/* cmd_control.c: requests to a running recording */
int cmd_mark(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* "leakscope: " + message + newline on stderr. */
void lk_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* output.c: lk_error_name() with a lowercase first letter (a static buffer). */
const char *lk_cli_errtext(int code);
/* Open path for writing a report ("-" or NULL: standard output; a new
 * file gets 0666 less the umask, an existing one is written over in
 * place; never through another user's symbolic link: common/files.h),
 * printing why it failed. One report stream is open at a time. */
FILE *lk_cli_open_out(const char *path);
/* Standard error as the report stream (run's default). */
FILE *lk_cli_open_stderr(void);
/* The descriptor the open report stream writes to. */
int lk_cli_out_fd(void);
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

/* options.c: write a report with write(out, arg) (0 or a negative errno) to out_path;
 * when NULL, to INPUT + suffix (said on stderr unless -q), or standard output when
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
