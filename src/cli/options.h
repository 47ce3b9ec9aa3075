/*
 * options.h - the one command-line parser of every subcommand: each
 * command describes itself in a struct lk_cli_cmd (name, synopsis, what it
 * does, a table of its options, notes) and reads its arguments with
 * lk_cli_next(), getopt_long underneath. From the same table come its
 * `--help` (and `leakscope help CMD`), the option names the tests check
 * against the man pages, and the completion scripts (tools/completion.sh
 * reads the help).
 *
 * Conventions, the same in every command:
 *   - long options "--name VALUE" or "--name=VALUE", unambiguous prefixes
 *     accepted; short ones "-x VALUE", "-xVALUE", grouped flags "-qx";
 *   - options and operands in any order, "--" ends the options; run and
 *     record stop at the first operand (the program's own options follow);
 *   - -h/--help on standard output, status 0;
 *   - the options that several commands have mean the same in each:
 *     -o/--output FILE, -f/--format FMT, --top N, -q/--quiet, and for
 *     the commands that print stacks --color WHEN and --full-stacks;
 *   - a usage error is said in one line "leakscope: CMD: WHAT", followed
 *     by "try 'leakscope help CMD'", and the status is LK_EXIT_USAGE (2).
 */
#ifndef LK_CLI_OPTIONS_H
#define LK_CLI_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* The status of a usage error, in every command. */
#define LK_EXIT_USAGE 2

/* One option. key is what lk_cli_next() returns for it: its short letter
 * ('o' is -o), or LK_CLI_LONG and above for an option with a long name
 * only. */
struct lk_cli_opt {
	const char *name;   /* the long name, without "--" */
	int key;
	const char *arg;    /* the value's name in the help (FILE, N), or its
			       choices ("text|json": lowercase words), NULL:
			       a flag */
	const char *help;   /* its help, lines separated by '\n'; NULL: an old
			       name that keeps working, not shown */
};

enum {
	LK_CLI_TOP = 256,   /* --top N */
	LK_CLI_COLOR,       /* --color WHEN */
	LK_CLI_FULL_STACKS, /* --full-stacks */
	LK_CLI_LONG = 264,  /* the first key a command may give a long-only option */
};

/* The options several commands share, the same everywhere. */
#define LK_CLI_OPT_OUTPUT(help) {"output", 'o', "FILE", help}
#define LK_CLI_OPT_FORMAT(choices, help) {"format", 'f', choices, help}
#define LK_CLI_OPT_TOP(help) {"top", LK_CLI_TOP, "N", help}
#define LK_CLI_OPT_COLOR \
	{"color", LK_CLI_COLOR, "auto|always|never", "colours in a text report: auto (default) when\n" \
	 "it goes to a terminal (not TERM=dumb) and\n" \
	 "NO_COLOR is unset or empty; always; never"}
#define LK_CLI_OPT_FULL_STACKS \
	{"full-stacks", LK_CLI_FULL_STACKS, NULL, "show the start-up frames below main (and a\n" \
	 "thread's start, Go's runtime.main, Rust's\n" \
	 "std::rt) in text"}
#define LK_CLI_OPT_QUIET \
	{"quiet", 'q', NULL, "say nothing on stderr but errors and warnings"}
#define LK_CLI_OPT_END {NULL, 0, NULL, NULL}

/* A command as its help shows it. -h/--help is every command's and is
 * not in opts. */
struct lk_cli_cmd {
	const char *name;
	const char *summary;    /* one line, for 'leakscope --help' */
	const char *synopsis;   /* what follows "leakscope NAME ", one line per form */
	const char *about;      /* what it does: paragraphs, each line ending in '\n' */
	const struct lk_cli_opt *opts;
	const char *notes;      /* after the options (operands, exit status), or NULL */
	int in_order;           /* options end at the first operand */
};

#define LK_CLI_MAX_OPTS 32

struct lk_cli_parser {
	const struct lk_cli_cmd *cmd;
	int argc;
	char **argv;
	const char *value;      /* the value of the option just returned */
	const struct lk_cli_opt *opt;  /* the option just returned */
	char **args;            /* at the end: the operands */
	int n_args;
	int status;             /* after LK_CLI_STOP: 0 (help shown) or LK_EXIT_USAGE */
	struct option longs[LK_CLI_MAX_OPTS + 2];
	char shorts[3 * LK_CLI_MAX_OPTS + 8];
};

enum { LK_CLI_END = 0, LK_CLI_STOP = -1 };

/* -q/--quiet was given: lk_cli_note() says nothing. */
extern int lk_cli_quiet;

/* Start reading argv (argv[0] is the command's name). */
void lk_cli_parse_init(struct lk_cli_parser *p, const struct lk_cli_cmd *cmd, int argc,
		       char **argv);
/* The key of the next option, its value in p->value; LK_CLI_END when the
 * options are over (the operands in p->args, p->n_args); LK_CLI_STOP
 * after --help was shown or a usage error said: the command returns
 * p->status. -h and -q are handled here. */
int lk_cli_next(struct lk_cli_parser *p);

/* The current option's value as a whole number in [lo, hi], or -1 after
 * saying "--NAME wants a number from LO to HI, not 'V'" (a usage error). */
long lk_cli_number(struct lk_cli_parser *p, long lo, long hi);
/* The current option's value as an index in its choices ("a|b|c"), or -1
 * after saying "unknown NAME 'V' (a, b or c)" (a usage error). */
int lk_cli_choice(struct lk_cli_parser *p);

/* --color: the index of its choice (auto, always, never). */
enum { LK_CLI_COLOR_AUTO, LK_CLI_COLOR_ALWAYS, LK_CLI_COLOR_NEVER };
/* Whether a text report written to fd gets colours for --color's
 * choice: auto when fd is a terminal, TERM is set and not "dumb", and
 * NO_COLOR is unset or empty. */
int lk_cli_color(int choice, int fd);

/* Say "leakscope: CMD: MESSAGE" and the pointer to the help on stderr;
 * returns LK_EXIT_USAGE. */
int lk_cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The help of a command: synopsis, what it does, options, notes. */
void lk_cli_help(const struct lk_cli_cmd *cmd, FILE *out);

/* "leakscope: " + message + newline on stderr, unless -q was given: what
 * is said for information (a file written, a trace begun, progress). */
void lk_cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
