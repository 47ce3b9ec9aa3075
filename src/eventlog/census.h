/*
 * census.h - the values of a heap profile's bands over its censuses, in
 * memory bounded by bands x LK_PROFILE_SAMPLES_MAX whatever the length of
 * the run, and by LK_PROFILE_VALUES_MAX however many bands
 * (docs/eventlog.md, "Memory").
 *
 * Each band's statistics are running sums over every census
 * (analyze/band_sums.h); its drawn values are at most LK_PROFILE_SAMPLES_MAX
 * points (fewer, down to LK_PROFILE_SAMPLES_MIN, where bands x points would
 * pass LK_PROFILE_VALUES_MAX), each the mean of `stride` consecutive
 * censuses: when the points are full, neighbours merge and the stride
 * doubles, so files of up to that many censuses keep every value. Bands
 * are numbered by the caller (0, 1, ... as it meets them); a band absent
 * from a census is 0 there.
 *
 * Use: lk_census_begin(t) at each census, lk_census_add() for each of its
 * samples, lk_census_end(); then lk_census_finish() once, and read the
 * points and statistics.
 */
#ifndef LK_EVENTLOG_CENSUS_H
#define LK_EVENTLOG_CENSUS_H

#include <errno.h>
#include <stddef.h>

#include "analyze/band_sums.h"

#ifndef LK_PROFILE_SAMPLES_MAX
#define LK_PROFILE_SAMPLES_MAX 1024  /* drawn points per band; a power of 2 */
#endif
#ifndef LK_PROFILE_SAMPLES_MIN
#define LK_PROFILE_SAMPLES_MIN 64    /* ... however many bands; a power of 2 */
#endif
#ifndef LK_PROFILE_VALUES_MAX
#define LK_PROFILE_VALUES_MAX ((size_t)1 << 23)  /* drawn values of all bands: 64 MiB */
#endif

struct lk_census_slot;

struct lk_census {
	int open;                     /* a census is being filled */
	double open_t;                /* its time, seconds */
	struct lk_band_table sums;    /* of the closed ones; sums.n bands */
	struct lk_census_slot *slots; /* LK_PROFILE_SAMPLES_MAX of them */
	size_t n_slots, stride;
	double *cur;                  /* by band: bytes at the open census */
	size_t *seen;                 /* by band: 1 + the census that set cur */
	size_t cap_bands;             /* of cur and seen */
	size_t *touched, n_touched, cap_touched;  /* bands of the open census */
	size_t *active, n_active, cap_active;     /* bands of the last one */
	int unsorted;                 /* a census before the one before it */
	int backwards;                /* ... after a merge: drawn at the time of the
				       * census before (GHC writes them in order) */
	double backwards_t, backwards_prev;  /* the first such, and its predecessor */
};

/* A census at t seconds (the open one, if any, ends). 0 or -ENOMEM. */
int lk_census_begin(struct lk_census *c, double t);
/* Room for band and for one more band of the open census (lk_census_add's
 * slow path). 0 or -ENOMEM. */
int lk_census_make_room(struct lk_census *c, size_t band);

/* bytes of band at the open census (c->open: the caller begins one for a
 * sample outside any). 0 or -ENOMEM. Inline: once a sample. */
static inline int lk_census_add(struct lk_census *c, size_t band, double bytes)
{
	if ((band >= c->sums.n || c->n_touched == c->cap_touched) &&
	    lk_census_make_room(c, band))
		return -ENOMEM;
	size_t this = c->sums.times.n + 1;
	if (c->seen[band] != this) {
		c->seen[band] = this;
		c->touched[c->n_touched++] = band;
	}
	c->cur[band] += bytes;
	return 0;
}
/* The open census, if any, is left out: its samples are forgotten, as
 * if it had not begun (a census the end of the file or damage cut). */
void lk_census_drop(struct lk_census *c);
/* The open census, if any, is complete. 0 or -ENOMEM. */
int lk_census_end(struct lk_census *c);
/* No more censuses: the points in time order. 0 or -ENOMEM. */
int lk_census_finish(struct lk_census *c);

size_t lk_census_count(const struct lk_census *c);   /* censuses read */
size_t lk_census_points(const struct lk_census *c);  /* drawn points */
double lk_census_time(const struct lk_census *c, size_t point);
/* out[k] = a new array (of lk_census_points() doubles) of the mean value
 * of band k at each point, for every band k < n_bands. The points leave c
 * as they are copied, a part of the bands at a time, so that the arrays
 * are made in the memory they give back: c and the arrays never both hold
 * them all (afterwards only the statistics, times and counts of c are
 * read). 0, or -ENOMEM with every out[k] NULL. */
int lk_census_take_values(struct lk_census *c, double **out, size_t n_bands);
/* Statistics of band over every census. */
void lk_census_stats(const struct lk_census *c, size_t band, struct lk_band_stats *out);

void lk_census_release(struct lk_census *c);

#endif
