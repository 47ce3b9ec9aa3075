/*
 * text_escape.h - text from a program (an eventlog's labels, markers,
 * metadata) written to a terminal safely: what is printable and valid
 * UTF-8 as it is, control characters and invalid bytes as C escapes, as
 * the JSON and HTML writers escape them their own way.
 */
#ifndef LK_REPORT_TEXT_ESCAPE_H
#define LK_REPORT_TEXT_ESCAPE_H

#include <stdio.h>

/* s, with \n, \t, \r, \\ and \xNN for control characters, DEL and the bytes
 * of invalid UTF-8. */
void lk_text_put_escaped(FILE *out, const char *s);

#endif
