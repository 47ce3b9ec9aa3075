/*
 * error.h - the one error convention of the library code.
 *
 * Functions return 0 on success or a negative LK_E* code (negative errno
 * values are accepted too). The detail of the last failure of this thread
 * (a path, an offset) is kept by lk_error_set() and printed once, at the edge,
 * by src/cli/. Library code never prints and never exits.
 */
#ifndef LK_COMMON_ERROR_H
#define LK_COMMON_ERROR_H

enum {
	LK_EFORMAT = -1000, /* input is not in the expected format */
	LK_ETRUNC,          /* input ends inside a record */
	LK_EVERSION,        /* input is of a newer format version */
	LK_ELIMIT,          /* a built-in limit was reached */
	LK_ENOTFOUND,       /* a named thing does not exist */
	LK_EUSAGE,          /* bad command-line use */
	LK_ENOTREG,         /* a file of a type refused (a device, a FIFO...) */
	LK_EFOREIGN,        /* a symbolic link of another user (common/files.h) */
};

/* Record the detail of a failure; returns code so callers can
 * `return lk_error_set(LK_EFORMAT, "...", ...)`. */
int lk_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Detail of the last failure of this thread ("" if none). */
const char *lk_error_detail(void);

/* A short text for a code: "truncated input", strerror for -errno... */
const char *lk_error_name(int code);

#endif
