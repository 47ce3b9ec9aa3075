/*
 * short_name.h - a function's name as a person reads it in a text report:
 * C++ and Rust template arguments and parameter lists shortened to "<…>"
 * and "(…)" when they are long or nested ("(unsigned long)" and "<int>"
 * stay; a return type the demangler wrote first is left out; Rust's
 * "<T as Trait>::f" keeps T and Trait; the JSON keeps the whole name), and any name cut in its
 * middle to fit a column. Widths count characters, not bytes ("…" is
 * three bytes of UTF-8).
 */
#ifndef LK_REPORT_SHORT_NAME_H
#define LK_REPORT_SHORT_NAME_H

#include <stddef.h>

/* name shortened into buf (size bytes, NUL-terminated): its length in
 * bytes. Names without "::" and not ending in ')' (C, Go, Haskell) are
 * copied as they are. */
size_t lk_short_name(const char *name, char *buf, size_t size);

/* The columns s (n bytes of UTF-8) takes. */
size_t lk_text_columns(const char *s, size_t n);

/* s (n bytes, room for at least n + 2) cut to at most max columns by
 * putting "…" in place of its middle (keep_head columns of its start are
 * kept, the rest of max from its end): the new length in bytes. */
size_t lk_cut_middle(char *s, size_t n, size_t max, size_t keep_head);

#endif
