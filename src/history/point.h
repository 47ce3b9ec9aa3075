/*
 * point.h - a point of a trace as a user names it: "12.5" or "12.5s" (also
 * ms, us, min), a marker text, a snapshot name; "mark:TEXT",
 * "snapshot:NAME" and "time:12.5" say which explicitly.
 *
 * Ambiguity is resolved this way: a bare text that reads as a number (with
 * an optional unit) is a time; any other bare text names the first MARK or
 * SNAPSHOT record of the trace whose text equals it, whichever comes
 * first. A prefix removes the doubt ("mark:10" is the marker "10").
 */
#ifndef LK_HISTORY_POINT_H
#define LK_HISTORY_POINT_H

enum lk_point_kind {
	LK_POINT_START,     /* time 0 (no --from) */
	LK_POINT_END,       /* the end of the trace (no --to, TRACE alone) */
	LK_POINT_TIME,
	LK_POINT_NAME,
};

enum lk_point_which {
	LK_POINT_ANY,       /* a marker or a snapshot */
	LK_POINT_MARK,
	LK_POINT_SNAPSHOT,
};

struct lk_point {
	enum lk_point_kind kind;
	enum lk_point_which which;   /* LK_POINT_NAME */
	double seconds;              /* LK_POINT_TIME */
	const char *name;            /* LK_POINT_NAME: points into spec */
	const char *spec;            /* what the user wrote (NULL: START/END) */
};

/* Parse spec (kept by reference). 0, or LK_EUSAGE with the detail set. */
int lk_point_parse(const char *spec, struct lk_point *p);

/* "12.5 s", "marker 'frame 1'", "start" ... for messages, in buf. */
const char *lk_point_describe(const struct lk_point *p, char *buf, unsigned size);

#endif
