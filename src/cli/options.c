/*
 * options.c - the command-line conventions shared by the subcommands that
 * read a file and write a report (eventlog, report, diff): option values,
 * usage errors, counts, and where a report is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const char *lk_cli_value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=' && name[1] == '-')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

int lk_cli_usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "leakscope %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\ntry 'leakscope %s --help'\n", cmd);
	return 2;
}

int lk_cli_count(const char *s)
{
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 0 || n > 1000000000)
		return -1;
	return (int)n;
}

int lk_cli_choice(const char *v, const char *const *names)
{
	for (int k = 0; names[k]; k++)
		if (strcmp(v, names[k]) == 0)
			return k;
	return -1;
}

int lk_cli_output_option(const char *cmd, int argc, char **argv, int *i, const char **out_path,
			 int *top, int *missing)
{
	const char *v;
	if ((v = lk_cli_value(argc, argv, i, "-o", missing))) {
		*out_path = v;
		return 1;
	}
	if ((v = lk_cli_value(argc, argv, i, "--top", missing))) {
		if ((*top = lk_cli_count(v)) < 0)
			return lk_cli_usage_error(cmd, "--top wants a count, not '%s'", v);
		return 1;
	}
	return 0;
}

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
			lk_cli_error("wrote %s", made_path);
	}
	free(made_path);
	return status;
}
