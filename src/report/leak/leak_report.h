/*
 * leak_report.h - writers of leak reports ("leakscope run"): text for a
 * person (stderr by default), JSON for programs (docs/json-leaks.md),
 * folded stacks for flame graphs (report/folded.c, docs/formats.md), and
 * an HTML page (leak_html.c, docs/html-report.md).
 */
#ifndef LK_REPORT_LEAK_REPORT_H
#define LK_REPORT_LEAK_REPORT_H

#include <stdio.h>
#include <sys/types.h>

#include "analyze/leaks.h"
#include "report/text_style.h"

/* What a text leak report shows: the first `top` groups of each process
 * (0: all; the count of the others is said), the suppressed and the
 * still-reachable groups, suppressions for what was reported, and how. */
#define LK_LEAK_TEXT_TOP 10   /* groups per process a text report lists by default */

struct lk_leak_text_opts {
	size_t top;
	int show_suppressed;
	int show_reachable;
	int gen_suppressions;           /* leak:PATTERN lines for what was reported */
	struct lk_text_style style;
};

/* A process without a report, and why (docs/json-leaks.md, "unreported"). */
enum lk_unreported_why {
	LK_UNREPORTED_RUNNING,      /* still running when leakscope stopped */
	LK_UNREPORTED_EXEC_UNTRACED,/* it exec'd a program the interposer cannot reach */
	LK_UNREPORTED_EXEC_PRIVILEGED, /* it exec'd `program`, which gains privileges */
	LK_UNREPORTED_UNANNOUNCED,  /* it ended before its interposer announced it */
};

struct lk_unreported {
	pid_t pid;
	const char *command;
	enum lk_unreported_why why;
	const char *program;        /* EXEC_PRIVILEGED: the program, else NULL */
	int status;                 /* UNANNOUNCED: its wait status */
};

struct lk_run_result {
	char **argv;                    /* the program's command line */
	int exit_code, signal;          /* of the program; signal 0 if none */
	struct lk_leak_report *reports; /* in the order the processes ended */
	size_t n_reports;
	struct lk_unreported *unreported;
	size_t n_unreported;
	struct lk_leak_text_opts text;  /* the text report's */
};

void lk_leak_write_text(const struct lk_run_result *r, FILE *out);
/* --gen-suppressions (gen_supp.c): the leak:PATTERN lines that suppress
 * every group r reports lost, each pattern once, in the order of the
 * groups; nothing when there is none. */
void lk_leak_write_suppressions(const struct lk_run_result *r, FILE *out);
/* One process's report, in text (o->gen_suppressions is left to
 * lk_leak_write_text, which says each pattern once for every process)
 * and as a JSON object (an element of the "processes" of
 * docs/json-leaks.md): the JSON lists every group, whatever top says. */
void lk_leak_write_process_text(FILE *out, const struct lk_leak_report *p,
				const struct lk_leak_text_opts *o);
void lk_leak_write_process_json(FILE *out, const struct lk_leak_report *p);
void lk_leak_write_json(const struct lk_run_result *r, FILE *out);
void lk_leak_write_folded(const struct lk_run_result *r, FILE *out);
/* The self-contained HTML page (leak_html.c): 0, -EIO, -ENOMEM. */
int lk_leak_write_html(const struct lk_run_result *r, FILE *out);

#endif
