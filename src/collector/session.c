/* session.c - map a traced process's region and consume its events. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

static int header_valid(const struct lk_shm_header *h, uint64_t size)
{
	return h->magic == LK_SHM_MAGIC && h->version == LK_SHM_VERSION && h->size == size &&
	       h->ring_off + (uint64_t)LK_RING_SLOTS * sizeof(struct lk_slot) <= size &&
	       h->entry_off + (uint64_t)LK_STACK_ENTRIES * sizeof(struct lk_stack_entry) <= size &&
	       h->frame_off + (uint64_t)LK_FRAME_POOL * sizeof(uint64_t) <= size &&
	       h->module_off + (uint64_t)LK_MODULES_MAX * sizeof(struct lk_module_entry) <= size &&
	       h->mark_off + (uint64_t)LK_MARK_SLOTS * sizeof(struct lk_mark_slot) <= size &&
	       h->mark_off < size && h->mark_off % 8 == 0;
}

int lk_session_open(struct lk_session **out, int memfd, const struct lk_hello *hello, pid_t peer)
{
	uint64_t size = lk_shm_total_size();
	struct stat st;
	if (fstat(memfd, &st) != 0 || (uint64_t)st.st_size != size)
		return -EPROTO;
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (m == MAP_FAILED)
		return -errno;
	struct lk_session *s = calloc(1, sizeof(*s));
	if (!s || !header_valid(m, size) || lk_live_init(&s->live) != 0) {
		free(s);
		munmap(m, size);
		return -EPROTO;
	}
	s->hdr = m;
	s->mark_area = LK_SHM_AT(s->hdr, mark_off, struct lk_mark_slot); /* checked once */
	s->map_size = size;
	s->pid = peer;
	s->ppid = (pid_t)hello->ppid;
	s->forked = (hello->flags & LK_SHM_FORKED) != 0;
	s->own_malloc = (hello->flags & LK_SHM_OWN_MALLOC) != 0;
	memcpy(s->comm, s->hdr->comm, sizeof(s->comm) - 1);
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
	munmap(s->hdr, s->map_size);
	lk_live_release(&s->live);
	for (size_t i = 0; i < s->n_marks; i++)
		free(s->marks[i].text);
	free(s->marks);
	free(s->classes);
	free(s->leaders);
	free(s->roots);
	free(s->exe);
	free(s->cmdline);
	free(s->handover_path);
	lk_why_free(s->why);
	free(s);
}

static void root_add(struct lk_session *s, uint64_t addr, uint64_t size)
{
	if (s->n_roots == s->cap_roots) {
		size_t nc = s->cap_roots ? s->cap_roots * 2 : 8;
		struct lk_block *r = realloc(s->roots, nc * sizeof(*r));
		if (!r)
			return;
		s->roots = r;
		s->cap_roots = nc;
	}
	s->roots[s->n_roots++] = (struct lk_block){.addr = addr, .size = size};
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
	uint64_t k = e->addr;
	struct lk_mark_slot *slot = s->mark_area + (k & (LK_MARK_SLOTS - 1));
	if (atomic_load_explicit(&slot->seq, memory_order_acquire) != LK_MARK_DONE(k)) {
		s->marks_bad++;
		return;
	}
	char text[LK_MARK_TEXT];
	uint32_t len = slot->len < LK_MARK_TEXT ? slot->len : LK_MARK_TEXT - 1;
	memcpy(text, slot->text, len);
	text[len] = 0;
	atomic_store_explicit(&slot->seq, 0, memory_order_release);
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

static void apply(struct lk_session *s, const struct lk_slot *e, uint64_t pos)
{
	uint64_t ks = e->kind_size;
	if (s->classes) { /* the scan's verdicts name slots that may move now */
		free(s->classes);
		free(s->leaders);
		s->classes = NULL;
		s->leaders = NULL;
	}
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
		for (size_t i = 0; i < s->n_roots; i++)
			if (s->roots[i].addr == e->addr) {
				s->roots[i] = s->roots[--s->n_roots];
				break;
			}
		break;
	default:
		break;
	}
	if (s->sink)
		notify(s, e, pos, NULL, NULL);
}

uint64_t lk_session_drain(struct lk_session *s, int final)
{
	uint64_t n = 0;
	uint64_t head = atomic_load_explicit(&s->hdr->ring_head, memory_order_acquire);
	struct lk_slot *ring = LK_SHM_AT(s->hdr, ring_off, struct lk_slot);
	if (s->sink && s->sink->begin && s->tail < head)
		s->sink->begin(s->sink_data, s);
	while (s->tail < head) {
		uint64_t pos = s->tail, lap = LK_RING_LAP(pos);
		struct lk_slot *slot = &ring[pos & (LK_RING_SLOTS - 1)];
		uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_acquire);
		if (seq == lap + 1) {
			struct lk_slot copy = *slot;
			atomic_store_explicit(&slot->seq, lap + LK_RING_SLOTS, memory_order_release);
			/* after an exit call-back's scan, events are handed back
			 * unapplied: the verdicts belong to the blocks as they were,
			 * and threads still running must not wait on a full ring */
			if (!s->exit_called) {
				apply(s, &copy, pos);
				n++;
			}
		} else if (final || (s->stuck_pos == pos && now_ms() - s->stuck_since > STUCK_MS)) {
			/* reserved and never committed: its writer died or jumped away */
			uint64_t expect = seq;
			if (seq == lap)
				atomic_compare_exchange_strong(&slot->seq, &expect, lap + LK_RING_SLOTS);
			s->stats.stuck_slots++;
		} else {
			if (s->stuck_pos != pos) {
				s->stuck_pos = pos;
				s->stuck_since = now_ms();
			}
			break;
		}
		s->tail++;
	}
	atomic_store_explicit(&s->hdr->ring_tail, s->tail, memory_order_release);
	return n;
}

uint32_t lk_session_stack(const struct lk_session *s, uint32_t id, const uint64_t **ips)
{
	uint32_t count = atomic_load(&s->hdr->stack_count);
	if (id == 0 || id >= count || id >= LK_STACK_ENTRIES)
		return 0;
	const struct lk_stack_entry *e = LK_SHM_AT(s->hdr, entry_off, struct lk_stack_entry) + id;
	uint32_t depth = e->depth, first = e->first;
	if (depth == 0 || depth > LK_MAX_FRAMES || (uint64_t)first + depth > LK_FRAME_POOL)
		return 0;
	*ips = LK_SHM_AT(s->hdr, frame_off, uint64_t) + first;
	return depth;
}

int lk_session_module_info(const struct lk_session *s, uint64_t ip,
			   struct lk_session_module_info *out)
{
	const struct lk_module_entry *m = LK_SHM_AT(s->hdr, module_off, struct lk_module_entry);
	uint32_t n = atomic_load(&s->hdr->module_count);
	if (n > LK_MODULES_MAX)
		n = LK_MODULES_MAX;
	for (uint32_t i = n; i-- > 0;) {
		uint64_t lo = m[i].lo, hi = m[i].hi;
		if (ip < lo || ip >= hi)
			continue;
		if (memchr(m[i].path, 0, LK_PATH_MAX) == NULL)
			return -EPROTO;
		out->path = m[i].path[0] ? m[i].path : s->exe;
		out->bias = m[i].bias;
		out->lo = lo;
		out->hi = hi;
		return out->path ? 0 : -ENOENT;
	}
	return -ENOENT;
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
