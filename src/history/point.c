/* point.c - parsing the points users name in a trace (see point.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "history/point.h"

/* "12.5", "12.5s", "300ms", "2min": seconds, or -1 when it is not a time. */
static double parse_seconds(const char *s)
{
	static const struct { const char *unit; double scale; } units[] = {
		{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"min", 60},
	};
	char *end;
	if (!*s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -1;
	double v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0)
			return v * units[i].scale;
	return -1;
}

int lk_point_parse(const char *spec, struct lk_point *p)
{
	memset(p, 0, sizeof(*p));
	p->spec = spec;
	if (!spec || !*spec)
		return lk_error_set(LK_EUSAGE, "an empty point (want seconds, a marker or a snapshot name)");
	if (strncmp(spec, "time:", 5) == 0) {
		p->kind = LK_POINT_TIME;
		p->seconds = parse_seconds(spec + 5);
		if (p->seconds < 0)
			return lk_error_set(LK_EUSAGE, "'%s' is not a time (like 12.5 or 12.5s)", spec + 5);
		return 0;
	}
	p->kind = LK_POINT_NAME;
	if (strncmp(spec, "mark:", 5) == 0) {
		p->which = LK_POINT_MARK;
		p->name = spec + 5;
	} else if (strncmp(spec, "snapshot:", 9) == 0) {
		p->which = LK_POINT_SNAPSHOT;
		p->name = spec + 9;
	} else if ((p->seconds = parse_seconds(spec)) >= 0) {
		p->kind = LK_POINT_TIME;
	} else {
		p->seconds = 0;
		p->which = LK_POINT_ANY;
		p->name = spec;
	}
	return 0;
}

const char *lk_point_describe(const struct lk_point *p, char *buf, unsigned size)
{
	static const char *const what[] = {"marker or snapshot", "marker", "snapshot"};
	switch (p->kind) {
	case LK_POINT_START: snprintf(buf, size, "the start"); break;
	case LK_POINT_END: snprintf(buf, size, "the end"); break;
	case LK_POINT_TIME: snprintf(buf, size, "%g s", p->seconds); break;
	case LK_POINT_NAME: snprintf(buf, size, "%s '%s'", what[p->which], p->name); break;
	}
	return buf;
}
