/*
 * hp.h - GHC's .hp heap profile text (the output of +RTS -h without -l)
 * -> struct lk_timeline, the model an eventlog's heap profile becomes
 * (profile.h), so that every report of `leakscope eventlog` reads either.
 *
 * The format (docs/eventlog.md, "Input formats"): header lines JOB "cmd",
 * DATE "date", SAMPLE_UNIT "seconds", VALUE_UNIT "bytes"; then for each
 * census BEGIN_SAMPLE t, one line `band<TAB>bytes` per band (a name may
 * hold spaces and parentheses), END_SAMPLE t; MARK t lines are markers.
 *   bands    one per band name, in bytes at each census;
 *   markers  the MARK lines (no text);
 *   meta     program (JOB), start (DATE, as written), censuses, points.
 * The empty samples GHC writes when profiling begins and when it ends are
 * not censuses and are left out (those before the first census, and up to
 * 1024 after the last); an empty sample between two censuses is one
 * (nothing live). A sample the end of the file cuts (a killed
 * program) is left out of the report, with a warning, as the eventlog
 * reader leaves out a cut census; a line that is not of the format stops
 * the reading there (st->data_error, the first warning names the line and
 * what was expected) and the report shows what came before. Memory is
 * bounded as for an eventlog (census.h), whatever the number of samples.
 */
#ifndef LK_EVENTLOG_HP_H
#define LK_EVENTLOG_HP_H

#include <stdio.h>

#include "analyze/timeline.h"
#include "eventlog/profile.h"

/* The first byte of a .hp file ('J' of JOB; an eventlog's is 'h'). */
#define LK_HP_FIRST_BYTE 'J'

/* Whether f begins with LK_HP_FIRST_BYTE: one byte read and put back
 * (a pipe too). 1, 0, or 0 at the end of the file. */
int lk_hp_sniff(FILE *f);

/* Build *tl (zeroed by this function) from the .hp text in f, as
 * lk_profile_read() does from an eventlog: 0 when a timeline was built
 * (complete or partial: st->data_error, tl->warnings); LK_EFORMAT when
 * the first line is not JOB "..." (lk_error_detail() says so), -ENOMEM;
 * *tl then left empty. st may be NULL; st->events counts lines. */
int lk_hp_read(FILE *f, struct lk_timeline *tl, struct lk_profile_stats *st);

#endif
