/*
 * maps.h - read /proc/PID/maps one mapping at a time. The names are the
 * program's (it names its files): a line longer than the buffer is cut
 * at the buffer's end and the rest dropped, never read as a mapping.
 */
#ifndef LK_COLLECTOR_MAPS_H
#define LK_COLLECTOR_MAPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lk_maps_line {
	uint64_t lo, hi;
	char perms[8];       /* "rw-p" ... */
	uint64_t offset;     /* in the file mapped */
	const char *name;    /* in the caller's buffer, as maps writes it (with its
			      * newline unless cut); "" for an anonymous mapping */
};

/* The next mapping of f into m, its text in buf: 1, or 0 at the end. */
int lk_maps_next(FILE *f, char *buf, size_t size, struct lk_maps_line *m);

#endif
