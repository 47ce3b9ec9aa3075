/*
 * suppress.h - LeakSanitizer-style suppressions: lines `leak:PATTERN`,
 * `#` comments. A pattern matches a leak when it matches the function,
 * file or module of any frame of its stack; `*` matches any run of
 * characters, a leading `^` / trailing `$` anchor it, otherwise it may match
 * anywhere. A built-in list (docs/suppressions.md) covers one-time runtime
 * allocations that live until exit.
 */
#ifndef LK_ANALYZE_SUPPRESS_H
#define LK_ANALYZE_SUPPRESS_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/timeline.h"

struct lk_suppressions {
	char **patterns;
	char **sources;     /* the file each pattern was read from; NULL: built in */
	size_t n, cap;
	size_t n_builtin;   /* the first n_builtin come from the built-in list */
};

void lk_suppressions_init(struct lk_suppressions *s);
void lk_suppressions_release(struct lk_suppressions *s);
int lk_suppressions_add_builtin(struct lk_suppressions *s);
/* A suppressions file is a short text: reading stops past this size. */
#define LK_SUPPRESSIONS_MAX (1024u * 1024u)

/* Read the lines of f (named name in messages), at most
 * LK_SUPPRESSIONS_MAX bytes: LK_ELIMIT past them (an endless pipe),
 * LK_EFORMAT for a NUL byte or a bad line (with its number), the detail
 * set; -EIO, -ENOMEM. */
int lk_suppressions_read(struct lk_suppressions *s, FILE *f, const char *name);
/* pattern, read from the file source (NULL: the built-in list). */
int lk_suppressions_add(struct lk_suppressions *s, const char *pattern, const char *source);

/* The pattern that suppresses this stack, or NULL. */
const char *lk_suppressions_match(const struct lk_suppressions *s,
				  const struct lk_frame_text *frames, size_t n);
/* Where a pattern lk_suppressions_match() returned comes from: the file
 * it was read from, or "builtin". */
const char *lk_suppressions_source(const struct lk_suppressions *s, const char *pattern);

/* 1 if module (a file name) belongs to the C/C++ runtime: libc, ld.so,
 * libstdc++, libgcc_s, libm. */
int lk_suppress_system_module(const char *module);

/* 1 if pattern matches text (exposed for tests). */
int lk_pattern_match(const char *pattern, const char *text);

#endif
