/* error.c - last-failure detail per thread and names of error codes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"

static __thread char detail[512];

int lk_error_set(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return code;
}

const char *lk_error_detail(void)
{
	return detail;
}

const char *lk_error_name(int code)
{
	switch (code) {
	case LK_EFORMAT: return "bad format";
	case LK_ETRUNC: return "truncated input";
	case LK_EVERSION: return "unsupported format version";
	case LK_ELIMIT: return "limit reached";
	case LK_ENOTFOUND: return "not found";
	case LK_EUSAGE: return "usage error";
	case LK_ENOTREG: return "not a regular file";
	case LK_EFOREIGN: return "a symbolic link of another user (not followed)";
	}
	if (code < 0 && code > -4096)
		return strerror(-code);
	return "unknown error";
}
