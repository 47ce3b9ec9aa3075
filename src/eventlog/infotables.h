/*
 * infotables.h - names of a -hi profile's info tables from the symbol
 * table of the executable that wrote it, for the bands without an IPE
 * entry (closures of libraries and of the RTS, built without
 * -finfo-table-map), which the eventlog only gives as addresses.
 */
#ifndef LK_EVENTLOG_INFOTABLES_H
#define LK_EVENTLOG_INFOTABLES_H

#include "analyze/timeline.h"

/* Name each band of tl whose label is still its info table address
 * ("0x43d840") after the symbol of the executable at path there, which must
 * be an info table (..._info), z-decoded ("base:GHC.Show.$wshowSignedInt_info");
 * a "named by" detail column says "IPE" or "symbol". Refuses, naming
 * nothing, a file that cannot be read as an executable, a
 * position-independent one (its run-time addresses are not known) and one
 * that does not fit the eventlog: then *refused is the reason (malloc'ed,
 * a sentence for a warning), else NULL. 0, or -ENOMEM. */
int lk_infotables_name(struct lk_timeline *tl, const char *path, char **refused);

#endif
