/* attach_check.c - check a process leakscope did not start (see
 * attach_check.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/leaks.h"
#include "collector/allocator.h"
#include "collector/glibcheap.h"
#include "collector/procmods.h"
#include "collector/stopall.h"
#include "common/error.h"
#include "control/attach_check.h"
#include "control/attach_heap.h"
#include "control/check.h"
#include "report/leak/leak_report.h"
#include "report/text_frames.h"

#define STOP_MS 5000

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* /proc/PID/NAME into buf (NUL bytes made spaces), "" when unreadable. */
static void proc_text(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : 0;
	if (fd >= 0)
		close(fd);
	n = n > 0 ? n : 0;
	while (n > 0 && (buf[n - 1] == 0 || buf[n - 1] == '\n'))
		n--;
	buf[n] = 0;
	for (ssize_t i = 0; i < n; i++)
		buf[i] = buf[i] ? buf[i] : ' ';
}

/* While st holds the process: read its heap and scan it. */
static int read_and_scan(struct lk_session *s, struct lk_stopall *st, struct lk_glibc_heap *h,
			 uint64_t **sizes)
{
	int rc = lk_attach_heap_read(s->pid, st, h);
	uint64_t bytes = 0;
	long put = rc ? 0 : (lk_live_init(&s->live) ? -ENOMEM : lk_attach_heap_put(s, h, sizes, &bytes));
	if (!rc && (rc = put < 0 ? (int)put : 0) == 0)
		rc = lk_check_scan_stopped(s, st);
	return rc;
}

/* Stop, read, scan, resume; again (a while later) when the heap was caught
 * changing. */
static int stop_read_scan(struct lk_session *s, struct lk_glibc_heap *h, uint64_t **sizes,
			  struct lk_attach_stats *a)
{
	int rc = LK_EFORMAT;
	for (a->tries = 1; rc == LK_EFORMAT && a->tries <= LK_ATTACH_TRIES; a->tries++) {
		if (a->tries > 1)
			nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
		lk_glibc_heap_release(h);
		lk_live_release(&s->live);
		free(*sizes);
		*sizes = NULL;
		s->attach_sizes = NULL;
		struct lk_stopall st;
		uint64_t t0 = now_us();
		rc = lk_stopall_stop(&st, s->pid, STOP_MS);
		if (rc == 0)
			rc = read_and_scan(s, &st, h, sizes);
		lk_stopall_resume(&st);
		a->pause_us = now_us() - t0;
		lk_stopall_release(&st);
	}
	a->tries--;
	return rc;
}

/* The sentence of the report: where the blocks come from, the pause. */
static void note(char *buf, size_t size, const struct lk_attach_stats *a)
{
	char blocks[32], bytes[32];
	snprintf(buf, size, "leakscope did not start this process: its blocks were read from "
		 "glibc's heap (%s blocks in use, %s bytes; its threads were "
		 "stopped for %" PRIu64 ".%03" PRIu64 " ms), without allocation stacks: they are "
		 "grouped by size, malloc's usable size (the request rounded up)",
		 lk_grouped(a->blocks, blocks, sizeof(blocks)),
		 lk_grouped(a->bytes, bytes, sizeof(bytes)), a->pause_us / 1000, a->pause_us % 1000);
}

static void write_report(const struct lk_control_request *req, struct lk_leak_report *rep,
			 FILE *out)
{
	struct lk_run_result r = {.reports = rep, .n_reports = 1,
				  .text = lk_check_text_opts(req)};
	if (req->json)
		lk_leak_write_json(&r, out);
	else
		lk_leak_write_text(&r, out);
}

/* Its parent, from /proc/PID/status; 0 when unknown. */
static pid_t parent_of(pid_t pid)
{
	char path[64], line[256];
	int ppid = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f) && sscanf(line, "PPid: %d", &ppid) != 1)
		;
	if (f)
		fclose(f);
	return (pid_t)ppid;
}

static void describe(struct lk_session *s, pid_t pid)
{
	static char exe[4096], cmdline[4096];
	char path[64];
	s->pid = pid;
	s->ppid = parent_of(pid);
	s->scan_wanted = 1;
	s->want_why = 0;
	proc_text(pid, "comm", s->comm, sizeof(s->comm));
	proc_text(pid, "cmdline", cmdline, sizeof(cmdline));
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	s->exe = n > 0 ? exe : NULL;
	s->cmdline = cmdline[0] ? cmdline : NULL;
}

int lk_attach_check_run(const struct lk_control_request *req, FILE *out)
{
	lk_error_set(0, "%s", "");
	int rc = lk_allocator_check(req->pid);
	if (rc)
		return rc;
	struct lk_session *s = calloc(1, sizeof(*s));
	struct lk_symbolizer *sym = NULL;
	if (!s || lk_symbolizer_new(&sym) != 0) {
		free(s);
		return -ENOMEM;
	}
	describe(s, req->pid);
	s->want_why = req->why;
	if (lk_procmods_read(req->pid, &s->view.mods, &s->view.n_mods) != 0)
		s->view.n_mods = 0; /* globals and code are then not named */
	struct lk_glibc_heap h = {0};
	struct lk_attach_stats a = {0};
	struct lk_leak_report rep = {0};
	uint64_t *sizes = NULL;
	char text[512];
	rc = stop_read_scan(s, &h, &sizes, &a);
	if (rc == 0) {
		a = (struct lk_attach_stats){.pause_us = a.pause_us, .tries = a.tries,
			.blocks = h.n, .bytes = h.bytes, .chunks = h.chunks, .in_tcache = h.in_tcache,
			.in_fastbins = h.in_fastbins, .arenas = h.arenas, .heaps = h.heaps,
			.mmapped = h.mmapped};
		rc = lk_leaks_collect(s, sym, NULL, 0, req->why, req->why, &rep);
	}
	if (rc == 0) {
		note(text, sizeof(text), &a);
		rep.alloc_note = text;
		rep.attach = &a;
		write_report(req, &rep, out);
	}
	lk_leak_report_release(&rep);
	lk_glibc_heap_release(&h);
	lk_live_release(&s->live);
	lk_why_free(s->why);
	lk_procmods_free(s->view.mods, s->view.n_mods);
	free(s->classes);
	free(s->leaders);
	free(sizes);
	free(s);
	lk_symbolizer_free(sym);
	return rc;
}
