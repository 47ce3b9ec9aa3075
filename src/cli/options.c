/*
 * options.c - the command line of every subcommand (options.h): a
 * command's table of options becomes getopt_long's, its help is printed
 * from the same table, and every usage error is said one way, with one
 * status. Also where a report is written when the user did not say.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int lk_cli_quiet;

static const struct lk_cli_opt help_opt = {"help", 'h', NULL, "show this help and exit"};

static int is_letter(int key)
{
	return key > 0 && key < 128 && isalnum(key);
}

void lk_cli_parse_init(struct lk_cli_parser *p, const struct lk_cli_cmd *cmd, int argc,
		       char **argv)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	char *s = p->shorts;
	if (cmd->in_order)
		*s++ = '+';
	*s++ = ':';    /* a missing value is told apart from an unknown option */
	size_t n = 0;
	for (const struct lk_cli_opt *o = cmd->opts; o && o->name && n < LK_CLI_MAX_OPTS; o++, n++) {
		p->longs[n] = (struct option){o->name, o->arg ? required_argument : no_argument,
					      NULL, o->key};
		if (is_letter(o->key)) {
			*s++ = (char)o->key;
			if (o->arg)
				*s++ = ':';
		}
	}
	p->longs[n++] = (struct option){"help", no_argument, NULL, 'h'};
	p->longs[n] = (struct option){NULL, 0, NULL, 0};
	*s++ = 'h';
	*s = 0;
	optind = 0;    /* glibc: start afresh, also inside grouped short options */
	opterr = 0;    /* the messages are ours */
}

static const struct lk_cli_opt *find(const struct lk_cli_cmd *cmd, int key)
{
	for (const struct lk_cli_opt *o = cmd->opts; o && o->name; o++)
		if (o->key == key)
			return o;
	return key == 'h' ? &help_opt : NULL;
}

/* The argument getopt stopped at: "--name" (what comes before '='),
 * else "-x" for the letter. */
static const char *written(const struct lk_cli_parser *p, int letter, char *buf, size_t size)
{
	const char *a = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
	if (strncmp(a, "--", 2) == 0)
		snprintf(buf, size, "%.*s", (int)strcspn(a, "="), a);
	else
		snprintf(buf, size, "-%c", letter ? letter : '?');
	return buf;
}

/* How many long options start with what "--x" names: 2 and more is an
 * ambiguous prefix. */
static int prefix_matches(const struct lk_cli_parser *p, const char *dashed)
{
	int n = 0;
	size_t len = strlen(dashed + 2);
	for (const struct option *o = p->longs; o->name; o++)
		n += strncmp(o->name, dashed + 2, len) == 0;
	return n;
}

/* getopt returned c ('?' or ':', optopt set): say why. */
static int bad(struct lk_cli_parser *p, int c)
{
	char buf[128];
	const char *cmd = p->cmd->name;
	const struct lk_cli_opt *o = optopt ? find(p->cmd, optopt) : NULL;
	const char *w = written(p, is_letter(optopt) ? optopt : 0, buf, sizeof(buf));
	if (c == ':' && o)
		p->status = lk_cli_usage_error(cmd, "option '%s' needs a value", w);
	else if (o && !o->arg)  /* --flag=VALUE */
		p->status = lk_cli_usage_error(cmd, "option '--%s' takes no value", o->name);
	else if (is_letter(optopt))
		p->status = lk_cli_usage_error(cmd, "unknown option '-%c'", optopt);
	else if (strncmp(w, "--", 2) == 0 && prefix_matches(p, w) > 1)
		p->status = lk_cli_usage_error(cmd, "ambiguous option '%s'", w);
	else
		p->status = lk_cli_usage_error(cmd, "unknown option '%s'", w);
	return LK_CLI_STOP;
}

int lk_cli_next(struct lk_cli_parser *p)
{
	for (;;) {
		int c = getopt_long(p->argc, p->argv, p->shorts, p->longs, NULL);
		if (c == -1) {
			p->args = p->argv + optind;
			p->n_args = p->argc - optind;
			return LK_CLI_END;
		}
		if (c == '?' || c == ':')
			return bad(p, c);
		if (c == 'h') {
			lk_cli_help(p->cmd, stdout);
			p->status = 0;
			return LK_CLI_STOP;
		}
		p->opt = find(p->cmd, c);
		p->value = optarg;
		if (c == 'q' && p->opt && !p->opt->arg) {
			lk_cli_quiet = 1;
			continue;
		}
		return c;
	}
}

long lk_cli_number(struct lk_cli_parser *p, long lo, long hi)
{
	char *end;
	const char *s = p->value;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		p->status = lk_cli_usage_error(p->cmd->name, "--%s wants a number from %ld to %ld, "
					       "not '%s'", p->opt->name, lo, hi, s);
		return -1;
	}
	return v;
}

int lk_cli_choice(struct lk_cli_parser *p)
{
	const char *c = p->opt->arg, *v = p->value;
	size_t len = strlen(v);
	for (int k = 0; *c; k++) {
		size_t n = strcspn(c, "|");
		if (n == len && strncmp(c, v, n) == 0)
			return k;
		c += n + (c[n] == '|');
	}
	char list[256] = "";
	size_t at = 0;
	for (c = p->opt->arg; *c && at < sizeof(list); ) {
		size_t n = strcspn(c, "|");
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%.*s",
				       c == p->opt->arg ? "" : strchr(c, '|') ? ", " : " or ",
				       (int)n, c);
		c += n + (c[n] == '|');
	}
	p->status = lk_cli_usage_error(p->cmd->name, "unknown %s '%s' (%s)", p->opt->name, v, list);
	return -1;
}

int lk_cli_color(int choice, int fd)
{
	const char *term = getenv("TERM"), *no = getenv("NO_COLOR");
	if (choice != LK_CLI_COLOR_AUTO)
		return choice == LK_CLI_COLOR_ALWAYS;
	return isatty(fd) && term && *term && strcmp(term, "dumb") && !(no && *no);
}

int lk_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "leakscope: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\ntry 'leakscope help %s'\n", cmd);
	return LK_EXIT_USAGE;
}

void lk_cli_note(const char *fmt, ...)
{
	if (lk_cli_quiet)
		return;
	va_list ap;
	fputs("leakscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- help ----------------------------------------------------------------- */

#define HELP_COLUMN 27   /* where an option's help starts */

/* text, each line after the first indented to the help's column */
static void put_indented(const char *text, FILE *out)
{
	for (const char *s = text; *s; ) {
		size_t n = strcspn(s, "\n");
		fprintf(out, "%.*s\n", (int)n, s);
		s += n;
		if (*s == '\n' && *++s)
			fprintf(out, "%*s", HELP_COLUMN, "");
	}
}

static void put_option(const struct lk_cli_opt *o, FILE *out)
{
	char head[96];
	int n = snprintf(head, sizeof(head), "  %s%c%s--%s%s%s", is_letter(o->key) ? "-" : " ",
			 is_letter(o->key) ? o->key : ' ', is_letter(o->key) ? ", " : "  ",
			 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	if (n + 1 >= HELP_COLUMN)
		fprintf(out, "%s\n%*s", head, HELP_COLUMN, "");
	else
		fprintf(out, "%-*s", HELP_COLUMN, head);
	put_indented(o->help, out);
}

void lk_cli_help(const struct lk_cli_cmd *cmd, FILE *out)
{
	const char *s = cmd->synopsis;
	for (int first = 1; first || *s; first = 0) {
		size_t n = strcspn(s, "\n");
		fprintf(out, "%s leakscope %s%s%.*s\n", first ? "usage:" : "      ", cmd->name,
			n ? " " : "", (int)n, s);
		s += n + (s[n] == '\n');
	}
	fprintf(out, "\n%s\noptions:\n", cmd->about);
	for (const struct lk_cli_opt *o = cmd->opts; o && o->name; o++)
		if (o->help)
			put_option(o, out);
	put_option(&help_opt, out);
	if (cmd->notes)
		fprintf(out, "\n%s", cmd->notes);
	fprintf(out, "\nSee also: man leakscope-%s\n", cmd->name);
}

/* ---- where a report goes -------------------------------------------------- */

int lk_cli_write_report(const char *input, const char *out_path, const char *suffix,
			int (*write)(FILE *out, void *arg), void *arg)
{
	char *made_path = NULL;
	if (suffix && !out_path) {
		if (asprintf(&made_path, "%s%s", input, suffix) < 0) {
			lk_cli_error("cannot write the report of '%s': %s", input, lk_cli_errtext(-ENOMEM));
			return 1;
		}
		out_path = made_path;
	}
	int status = 1;
	FILE *out = lk_cli_open_out(out_path);
	if (out) {
		status = lk_cli_close_out(out, write(out, arg));
		if (status == 0 && made_path)
			lk_cli_note("wrote %s", made_path);
	}
	free(made_path);
	return status;
}
