/* attach_heap.c - blocks from before leakscope looked (see attach_heap.h). */
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
#include "control/attach_check.h"
#include "control/attach_heap.h"

#define STOP_MS 5000

static int by_size(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The distinct sizes of the blocks of h not live in s, ascending. */
static int distinct_sizes(const struct lk_session *s, const struct lk_glibc_heap *h,
			  uint64_t **sizes, uint32_t *n)
{
	uint64_t *a = malloc((h->n + 1) * sizeof(*a));
	size_t k = 0, m = 0;
	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < h->n; i++)
		if (!lk_live_get(&s->live, h->blocks[i].addr))
			a[m++] = h->blocks[i].size;
	qsort(a, m, sizeof(*a), by_size);
	for (size_t i = 0; i < m; i++)
		if (!k || a[i] != a[k - 1])
			a[k++] = a[i];
	*sizes = a;
	*n = (uint32_t)k;
	return 0;
}

/* The block to the sink, as the allocation it was before we came. */
static void tell_sink(struct lk_session *s, struct lk_block *b)
{
	struct lk_session_event ev = {.kind = LK_EV_ALLOC, .pos = s->tail, .addr = b->addr,
				      .size = b->size, .stack = b->stack, .block = b};
	if (s->sink && s->sink->event)
		s->sink->event(s->sink_data, s, &ev);
}

long lk_attach_heap_put(struct lk_session *s, const struct lk_glibc_heap *h, uint64_t **sizes,
			uint64_t *bytes)
{
	uint32_t n_sizes;
	long put = 0;
	if (distinct_sizes(s, h, sizes, &n_sizes) != 0)
		return -ENOMEM;
	s->attach_sizes = *sizes;
	s->n_attach_sizes = n_sizes;
	if (s->sink && s->sink->begin)
		s->sink->begin(s->sink_data, s);
	for (size_t i = 0; i < h->n; i++) {
		if (lk_live_get(&s->live, h->blocks[i].addr))
			continue;
		const uint64_t *at = bsearch(&h->blocks[i].size, *sizes, n_sizes, sizeof(**sizes),
					     by_size);
		struct lk_block b = {.addr = h->blocks[i].addr, .size = h->blocks[i].size,
				     .stack = LK_ATTACH_STACK + (uint32_t)(at - *sizes)};
		if (lk_live_put(&s->live, &b) < 0)
			return -ENOMEM;
		tell_sink(s, lk_live_get(&s->live, b.addr));
		*bytes += b.size;
		put++;
	}
	return put;
}

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int lk_attach_heap_read(pid_t pid, const struct lk_stopall *st, struct lk_glibc_heap *h)
{
	char path[64];
	uint64_t *fs = calloc(st->n + 1, sizeof(*fs));
	size_t n = 0;
	if (!fs)
		return -ENOMEM;
	for (size_t i = 0; i < st->n; i++)
		if (!st->t[i].gone)
			fs[n++] = st->t[i].regs.fs_base;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = fd < 0 ? lk_error_set(-errno, "cannot read the memory of pid %d: %s", (int)pid,
				       strerror(errno))
			: lk_glibc_heap_read(pid, fd, fs, n, h);
	if (fd >= 0)
		close(fd);
	free(fs);
	return rc;
}

int lk_attach_heap_add(struct lk_session *s, uint64_t **sizes, struct lk_attach_heap_stats *out)
{
	int rc = LK_EFORMAT;
	memset(out, 0, sizeof(*out));
	for (out->tries = 1; rc == LK_EFORMAT && out->tries <= LK_ATTACH_TRIES; out->tries++) {
		struct lk_glibc_heap h = {0};
		struct lk_stopall st;
		if (out->tries > 1)
			nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
		uint64_t t0 = now_us();
		rc = lk_stopall_stop(&st, s->pid, STOP_MS);
		if (rc == 0) {
			lk_fault_point("heap-stopped");
			lk_session_drain(s, 0);
			rc = lk_attach_heap_read(s->pid, &st, &h);
		}
		if (rc == 0) {
			free(*sizes);
			*sizes = NULL;
			out->bytes = 0;
			long put = lk_attach_heap_put(s, &h, sizes, &out->bytes);
			rc = put < 0 ? (int)put : 0;
			out->blocks = put > 0 ? (size_t)put : 0;
		}
		lk_stopall_resume(&st);
		out->pause_us += now_us() - t0;
		lk_stopall_release(&st);
		lk_glibc_heap_release(&h);
	}
	out->tries--;
	return rc;
}
