/* exitcall.c - scan a process from its exit call-back (exitcall.h). */
#include <string.h>

#include "collector/exitcall.h"
#include "collector/scan.h"

int lk_exitcall_serve(struct lk_session *s, const struct lk_exit_hello *h, int mem_fd,
		      int maps_fd)
{
	struct lk_exit_snapshot snap;
	memset(&snap, 0, sizeof(snap));
	snap.tgid = snap.tid = s->pid;
	snap.mem_fd = mem_fd;
	snap.maps_fd = maps_fd;
	/* the caller's registers are on its stack (spilled below h->sp's
	 * frame): the stack pointer is all the scan needs */
	snap.regs.rsp = h->sp;
	snap.at_exit = 1;
	lk_session_drain(s, 0);
	int rc = lk_scan_session(s, &snap);
	s->exit_called = 1;
	return rc;
}
