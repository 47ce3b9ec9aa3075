/* session.c - consume a traced process's events from its shared region
 * (read through shmview.h: never trusted) into its live blocks. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector/session.h"

#define STUCK_MS 2000 /* a reserved slot not committed by then is skipped */

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static char *read_link(pid_t pid)
{
	char p[64], buf[PATH_MAX];
	snprintf(p, sizeof(p), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	return strdup(buf);
}

static char *read_cmdline(pid_t pid)
{
	char p[64], buf[4096];
	snprintf(p, sizeof(p), "/proc/%d/cmdline", (int)pid);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	for (ssize_t i = 0; i < n - 1; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = 0;
	return strdup(buf);
}

int lk_session_open(struct lk_session **out, int memfd, const struct lk_hello *hello, pid_t peer)
{
	struct lk_session *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	int rc = lk_shmview_map(&s->view, memfd);
	if (rc == 0 && lk_live_init(&s->live) != 0)
		rc = -ENOMEM;
	if (rc) {
		lk_shmview_release(&s->view);
		free(s);
		return rc;
	}
	s->pid = peer;
	s->ppid = (pid_t)hello->ppid;
	s->forked = (hello->flags & LK_SHM_FORKED) != 0;
	s->own_malloc = (hello->flags & LK_SHM_OWN_MALLOC) != 0;
	memcpy(s->comm, s->view.at_open.comm, sizeof(s->comm) - 1);
	s->exe = read_link(peer);
	s->cmdline = read_cmdline(peer);
	s->pidfd = -1;
	*out = s;
	return 0;
}

void lk_session_detach(struct lk_session *s)
{
	const struct lk_session_sink *k = s->sink;
	if (!k)
		return;
	s->sink = NULL;
	if (k->end)
		k->end(s->sink_data, s);
	s->sink_data = NULL;
}

void lk_session_free(struct lk_session *s)
{
	if (!s)
		return;
	lk_session_detach(s);
	if (s->pidfd >= 0)
		close(s->pidfd);
	lk_shmview_release(&s->view);
	lk_live_release(&s->live);
	lk_live_release(&s->roots);
	for (size_t i = 0; i < s->n_marks; i++)
		free(s->marks[i].text);
	free(s->marks);
	free(s->classes);
	free(s->leaders);
	free(s->fixed);
	free(s->exe);
	free(s->cmdline);
	free(s->handover_path);
	lk_why_free(s->why);
	free(s);
}

void lk_session_corrupt(struct lk_session *s, const char *what)
{
	if (s->corrupt)
		return;
	s->corrupt = what;
	snprintf(s->note, sizeof(s->note),
		 "the program overwrote leakscope's shared memory (%s): its report is incomplete",
		 what);
	lk_shmview_abandon(&s->view);
}

const char *lk_session_note(const struct lk_session *s)
{
	return s->corrupt ? s->note : NULL;
}

/* Regions the scan takes as roots (keyed by address: a region registered
 * twice is one, and unregistering costs no search). */
static void root_add(struct lk_session *s, uint64_t addr, uint64_t size)
{
	if (!s->roots.slots && lk_live_init(&s->roots) != 0)
		return;
	lk_live_put(&s->roots, &(struct lk_block){.addr = addr, .size = size});
}

/* Hand m to the hook, and keep it if asked (taking its text). */
static int mark_deliver(struct lk_session *s, struct lk_mark *m)
{
	if (s->on_mark)
		s->on_mark(s, m, s->mark_ctx);
	if (!s->keep_marks || s->n_marks >= LK_SESSION_MARKS_MAX) {
		s->marks_dropped += s->keep_marks;
		free(m->text);
		return 0;
	}
	struct lk_mark *a = realloc(s->marks, (s->n_marks + 1) * sizeof(*a));
	if (!a) {
		free(m->text);
		return -ENOMEM;
	}
	a[s->n_marks++] = *m;
	s->marks = a;
	return 0;
}

int lk_session_add_mark(struct lk_session *s, int snapshot, const char *text)
{
	struct lk_mark m = {.snapshot = snapshot, .pos = s->tail, .live_bytes = s->live.bytes,
			    .text = strdup(text)};
	return m.text ? mark_deliver(s, &m) : -ENOMEM;
}

/* A mark event: its text is in mark slot e->addr, if the target did its part. */
static void apply_mark(struct lk_session *s, const struct lk_slot *e, uint64_t pos, int snapshot)
{
	char text[LK_MARK_TEXT];
	int rc = lk_shmview_mark_text(&s->view, e->addr, text);
	if (rc < 0) {
		lk_session_corrupt(s, "a mark text");
		return;
	}
	if (rc == 0) {
		s->marks_bad++;
		return;
	}
	struct lk_mark m = {.snapshot = snapshot, .pos = pos, .live_bytes = s->live.bytes,
			    .tid = e->tid, .text = strdup(text)};
	if (m.text)
		mark_deliver(s, &m);
}

/* Tell the sink what apply() did. */
static void notify(struct lk_session *s, const struct lk_slot *e, uint64_t pos,
		   struct lk_block *block, const struct lk_block *replaced)
{
	struct lk_session_event ev = {
		.kind = LK_EV_KIND(e->kind_size), .pos = pos, .tid = e->tid, .addr = e->addr,
		.size = LK_EV_SIZE(e->kind_size), .stack = e->stack, .block = block,
		.replaced = replaced,
	};
	s->sink->event(s->sink_data, s, &ev);
}

static void apply_alloc(struct lk_session *s, const struct lk_slot *e, uint64_t pos)
{
	struct lk_block b = {.addr = e->addr, .size = LK_EV_SIZE(e->kind_size),
			     .stack = e->stack, .tid = e->tid};
	if (!b.addr)
		return;
	if (lk_shmview_check_stack(&s->view, b.stack) != 0) {
		lk_session_corrupt(s, "a stack id or entry");
		return;
	}
	struct lk_block old;
	const struct lk_block *was = s->sink ? lk_live_get(&s->live, b.addr) : NULL;
	if (was) {
		old = *was;
		was = &old;
	}
	s->stats.allocations++;
	s->stats.bytes_allocated += b.size;
	if (lk_live_put(&s->live, &b))
		s->stats.missed_frees++;
	if (s->live.bytes > s->stats.peak_bytes)
		s->stats.peak_bytes = s->live.bytes;
	if (s->sink)
		notify(s, e, pos, lk_live_get(&s->live, b.addr), was);
}

static void apply_free(struct lk_session *s, const struct lk_slot *e, uint64_t pos)
{
	struct lk_block gone;
	s->stats.frees++;
	int rc = lk_live_del(&s->live, e->addr, &gone);
	if (rc != 0)
		s->stats.unmatched_frees++;
	if (s->sink)
		notify(s, e, pos, rc == 0 ? &gone : NULL, NULL);
}

static void apply_realloc_free(struct lk_session *s, const struct lk_slot *e, uint64_t pos)
{
	/* kept until this thread's realloc returned, in case it failed */
	struct lk_block *keep = &s->undo[e->tid % 64];
	s->stats.frees++;
	if (lk_live_del(&s->live, e->addr, keep) != 0) {
		s->stats.unmatched_frees++;
		keep->addr = 0;
	}
	if (s->sink)
		notify(s, e, pos, keep->addr ? keep : NULL, NULL);
}

static void apply_realloc_undo(struct lk_session *s, const struct lk_slot *e, uint64_t pos)
{
	struct lk_block *keep = &s->undo[e->tid % 64];
	struct lk_block *back = NULL;
	if (keep->addr == e->addr) {
		s->stats.frees--;
		lk_live_put(&s->live, keep);
		back = lk_live_get(&s->live, e->addr);
	}
	keep->addr = 0;
	if (s->sink)
		notify(s, e, pos, back, NULL);
}

/* The scan's verdicts name slots that may move now: keep them by block
 * (without them if out of memory). */
static void fix_verdicts(struct lk_session *s)
{
	struct lk_fixed_verdict *v = malloc((s->live.count + 1) * sizeof(*v));
	size_t n = 0;
	lk_live_foreach(&s->live, b) {
		if (!v)
			break;
		size_t slot = (size_t)(b - s->live.slots);
		const struct lk_block *leader = s->leaders && s->leaders[slot] < s->live.cap
			? &s->live.slots[s->leaders[slot]] : NULL;
		v[n++] = (struct lk_fixed_verdict){.seq = b->seq, .cls = s->classes[slot],
			.leader_stack = leader && leader->addr ? leader->stack : 0};
	}
	free(s->fixed);
	s->fixed = v;
	s->n_fixed = n;
	free(s->classes);
	free(s->leaders);
	s->classes = NULL;
	s->leaders = NULL;
}

static void apply(struct lk_session *s, const struct lk_slot *e, uint64_t pos)
{
	uint64_t ks = e->kind_size;
	if (s->classes)
		fix_verdicts(s);
	switch (LK_EV_KIND(ks)) {
	case LK_EV_ALLOC:
		apply_alloc(s, e, pos);
		return;
	case LK_EV_FREE:
		apply_free(s, e, pos);
		return;
	case LK_EV_REALLOC_FREE:
		apply_realloc_free(s, e, pos);
		return;
	case LK_EV_REALLOC_UNDO:
		apply_realloc_undo(s, e, pos);
		return;
	case LK_EV_EXEC:
		s->exec_pending = 1;
		break;
	case LK_EV_EXEC_FAILED:
		s->exec_pending = 0;
		break;
	case LK_EV_IGNORE: {
		struct lk_block *b = lk_live_get(&s->live, e->addr);
		if (b)
			b->seq |= LK_BLOCK_IGNORED;
		break;
	}
	case LK_EV_ROOT_ADD:
		root_add(s, e->addr, LK_EV_SIZE(ks));
		break;
	case LK_EV_MARK:
	case LK_EV_SNAPSHOT:
		apply_mark(s, e, pos, LK_EV_KIND(ks) == LK_EV_SNAPSHOT);
		break;
	case LK_EV_ROOT_DEL:
		if (s->roots.slots)
			lk_live_del(&s->roots, e->addr, NULL);
		break;
	default:
		break;
	}
	if (s->sink)
		notify(s, e, pos, NULL, NULL);
}

/* Position pos is reserved but not committed: may it be skipped? Yes when
 * it was reserved STUCK_MS ago or more: a wait began then, and pos was
 * below the head seen at that time. Then so may every position after it
 * that was reserved by then, without a wait of its own. */
static int stuck_skip(struct lk_session *s, uint64_t pos, uint64_t head)
{
	uint64_t now = now_ms();
	if (s->stuck_since && pos < s->stuck_limit)
		return now - s->stuck_since > STUCK_MS;
	s->stuck_since = now ? now : 1;
	s->stuck_limit = head;
	return 0;
}

/* Consume the committed events of [s->tail, head); stop at the first slot
 * not committed (unless final, or it waited too long) or when the session
 * gave up on its region. */
static uint64_t consume(struct lk_session *s, uint64_t head, int final)
{
	uint64_t n = 0;
	struct lk_slot *ring = s->view.ring;
	while (s->tail < head && !s->corrupt) {
		uint64_t pos = s->tail, lap = LK_RING_LAP(pos);
		struct lk_slot *slot = &ring[pos & (LK_RING_SLOTS - 1)];
		uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_acquire);
		if (seq == lap + 1) {
			struct lk_slot copy;
			memcpy(&copy, slot, sizeof(copy));
			atomic_store_explicit(&slot->seq, lap + LK_RING_SLOTS, memory_order_release);
			/* after an exit call-back's scan, events are handed back
			 * unapplied: the verdicts belong to the blocks as they were,
			 * and threads still running must not wait on a full ring */
			if (!s->exit_called) {
				apply(s, &copy, pos);
				n++;
			}
		} else if (final || stuck_skip(s, pos, head)) {
			/* reserved and never committed: its writer died or jumped away */
			uint64_t expect = seq;
			if (seq == lap)
				atomic_compare_exchange_strong(&slot->seq, &expect, lap + LK_RING_SLOTS);
			s->stats.stuck_slots++;
		} else {
			break;
		}
		s->tail++;
	}
	return n;
}

/* Copy the module table's new entries: those of the events to come (before
 * them, in case the session gives up on its region during the drain) and
 * those of the events consumed (written before their events). 0, or -1
 * when the session gave up. */
static int sync_modules(struct lk_session *s)
{
	if (lk_shmview_sync_modules(&s->view) == -EPROTO)
		lk_session_corrupt(s, "the module table");
	return s->corrupt ? -1 : 0;
}

uint64_t lk_session_drain(struct lk_session *s, int final)
{
	if (s->corrupt)
		return 0;
	struct lk_shmview *v = &s->view;
	if (lk_shmview_intact(v) != 0) {
		lk_session_corrupt(s, "its header");
		return 0;
	}
	uint64_t head = atomic_load_explicit(&v->hdr->ring_head, memory_order_acquire);
	if (head < s->tail || head - s->tail > (uint64_t)LK_RING_SLOTS + LK_THREADS_MAX) {
		lk_session_corrupt(s, "the ring's head");
		return 0;
	}
	if (sync_modules(s))
		return 0;
	if (s->sink && s->sink->begin && s->tail < head)
		s->sink->begin(s->sink_data, s);
	uint64_t n = consume(s, head, final);
	if (s->corrupt || sync_modules(s))
		return n;
	if (final && lk_shmview_verify_stacks(v) != 0) {
		lk_session_corrupt(s, "a stack entry");
		return n;
	}
	s->marks_lost = atomic_load_explicit(&v->hdr->mark_dropped, memory_order_relaxed);
	atomic_store_explicit(&v->hdr->ring_tail, s->tail, memory_order_release);
	return n;
}

int lk_session_stack(const struct lk_session *s, uint32_t id, uint64_t ips[LK_MAX_FRAMES])
{
	return lk_shmview_stack(&s->view, id, ips);
}

int lk_session_module_info(const struct lk_session *s, uint64_t ip,
			   struct lk_session_module_info *out)
{
	const struct lk_shmview_module *m = lk_shmview_module_of(&s->view, ip);
	if (!m)
		return -ENOENT;
	out->path = m->path[0] ? m->path : s->exe;
	out->bias = m->bias;
	out->lo = m->lo;
	out->hi = m->hi;
	return out->path ? 0 : -ENOENT;
}

int lk_session_module(const struct lk_session *s, uint64_t ip, const char **path, uint64_t *bias)
{
	struct lk_session_module_info mi;
	int rc = lk_session_module_info(s, ip, &mi);
	if (rc == 0) {
		*path = mi.path;
		*bias = mi.bias;
	}
	return rc;
}
