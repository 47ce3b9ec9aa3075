/* detach.c - end an attach from outside (see detach.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector/stopall.h"
#include "common/error.h"
#include "common/fault.h"
#include "control/check.h"
#include "control/detach.h"

#define PATCHES_MAX (1u << 16)   /* as many as the interposer keeps */

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Write back each entry that still holds the interposer's function. */
static int restore(int mem, const struct lk_shm_header *h, struct lk_detach_stats *out)
{
	uint64_t at = atomic_load(&h->attach_patches), state = atomic_load(&h->attach_state);
	uint32_t n = atomic_load(&h->attach_n_patches);
	if (n > PATCHES_MAX || !state)
		return lk_error_set(-EPROTO, "%s", "the interposer's table of GOT entries is damaged");
	struct lk_got_patch *p = calloc(n + 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	int rc = n && pread(mem, p, n * sizeof(*p), (off_t)at) != (ssize_t)(n * sizeof(*p))
		 ? lk_error_set(-EIO, "%s", "cannot read the interposer's table of GOT entries") : 0;
	for (uint32_t i = 0; !rc && i < n; i++) {
		uint64_t v = 0;
		if (i == n / 2)
			lk_fault_point("detach-restoring");
		if (pread(mem, &v, sizeof(v), (off_t)p[i].slot) == sizeof(v) && v == p[i].now &&
		    pwrite(mem, &p[i].old, sizeof(p[i].old), (off_t)p[i].slot) == sizeof(v))
			out->restored++;
		else
			out->skipped++;
	}
	int off = LK_STATE_OFF;
	if (!rc && pwrite(mem, &off, sizeof(off), (off_t)state) != sizeof(off))
		rc = lk_error_set(-EIO, "%s", "cannot turn the interposer off");
	free(p);
	return rc;
}

int lk_detach_run(struct lk_session *s, int scan, struct lk_detach_stats *out)
{
	char path[64];
	struct lk_stopall st;
	memset(out, 0, sizeof(*out));
	uint64_t t0 = now_us();
	int rc = lk_stopall_stop(&st, s->pid, LK_CHECK_STOP_MS);
	if (rc == 0) {
		lk_fault_point("detach-stopped");
		lk_session_drain(s, 0);
		out->scanned = scan && lk_check_scan_stopped(s, &st) == 0;
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)s->pid);
		int mem = open(path, O_RDWR | O_CLOEXEC);
		rc = mem < 0 ? lk_error_set(-errno, "cannot write the memory of pid %d: %s",
					    (int)s->pid, strerror(errno))
			     : restore(mem, s->view.hdr, out);
		if (mem >= 0)
			close(mem);
		lk_fault_point("detach-restored");
	}
	lk_stopall_resume(&st);
	out->pause_us = now_us() - t0;
	lk_stopall_release(&st);
	return rc;
}
