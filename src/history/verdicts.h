/*
 * verdicts.h - the leaks of a trace as `leakscope run` reports them: the
 * blocks of the window still live at the end of the trace, grouped by
 * allocation site and by the verdict of the scan made as the process
 * ended (definitely, indirectly, possibly lost, still reachable; "not
 * freed" when the trace holds no verdict, and the report's scan note says
 * why), suppressions applied as `run` applies them.
 */
#ifndef LK_HISTORY_VERDICTS_H
#define LK_HISTORY_VERDICTS_H

#include "analyze/leaks.h"
#include "history/history.h"

/* Whether the window of h ends at the end of the trace, where verdicts
 * apply (else its blocks are only "not freed" at the window's end). */
int lk_history_verdicts_apply(const struct lk_history *h);

/* The leak report of h (read to its end; lk_history_verdicts_apply) into
 * *out, which the caller releases (lk_leak_report_release) and which must
 * not outlive h. 0 or -ENOMEM. */
int lk_history_leaks(const struct lk_history *h, const struct lk_suppressions *sup,
		     int show_reachable, struct lk_leak_report *out);

#endif
