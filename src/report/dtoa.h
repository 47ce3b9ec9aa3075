/*
 * dtoa.h - a double as the shortest decimal text that reads back as the
 * same double (what JSON readers parse), without printf.
 */
#ifndef LK_REPORT_DTOA_H
#define LK_REPORT_DTOA_H

#include <stddef.h>

#define LK_DTOA_MAX 32   /* bytes lk_dtoa may write */

/* The text of finite v at buf (no terminator): "-0", "0.1", "1e+300",
 * "2.5e-7", "123456"; its length. */
size_t lk_dtoa(double v, char *buf);

#endif
