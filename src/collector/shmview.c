/*
 * shmview.c - read a traced process's shared region without trusting it
 * (shmview.h).
 *
 * Owns the mapping, the checked copy of the header, the stack-id bitmap
 * and the copies of module entries. Each value of the region is read once
 * (ONCE: a volatile load the compiler cannot repeat) or copied whole into
 * a local before it is checked; never an offset or size from the header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "collector/shmview.h"

#define ONCE(x) (*(const volatile __typeof__(x) *)&(x))

/* The header's part the interposer writes once, before the announcement. */
#define FIXED_PART offsetof(struct lk_shm_header, ring_head)

static int header_valid(const struct lk_shm_header *h, const struct lk_shm_layout *l)
{
	return h->magic == LK_SHM_MAGIC && h->version == LK_SHM_VERSION && h->size == l->size &&
	       h->ring_off == l->ring_off && h->bucket_off == l->bucket_off &&
	       h->entry_off == l->entry_off && h->frame_off == l->frame_off &&
	       h->module_off == l->module_off && h->mark_off == l->mark_off;
}

int lk_shmview_map(struct lk_shmview *v, int memfd)
{
	struct lk_shm_layout l = lk_shm_layout();
	struct stat st;
	memset(v, 0, sizeof(*v));
	/* a memfd that cannot shrink: pages past a new end would fault */
	int seals = fcntl(memfd, F_GET_SEALS);
	if (fstat(memfd, &st) != 0 || (uint64_t)st.st_size != l.size || seals < 0 ||
	    !(seals & F_SEAL_SHRINK))
		return -EPROTO;
	void *m = mmap(NULL, l.size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (m == MAP_FAILED)
		return -errno;
	/* one read of the header, then only the copy is looked at */
	memcpy(&v->at_open, m, sizeof(v->at_open));
	if (!header_valid(&v->at_open, &l)) {
		munmap(m, l.size);
		return -EPROTO;
	}
	char *b = m;
	v->base = m;
	v->size = l.size;
	v->hdr = m;
	v->ring = (struct lk_slot *)(b + l.ring_off);
	v->entries = (const struct lk_stack_entry *)(b + l.entry_off);
	v->frames = (const uint64_t *)(b + l.frame_off);
	v->modules = (const struct lk_module_entry *)(b + l.module_off);
	v->marks = (struct lk_mark_slot *)(b + l.mark_off);
	return 0;
}

void lk_shmview_release(struct lk_shmview *v)
{
	if (v->base)
		munmap(v->base, v->size);
	for (uint32_t i = 0; i < v->n_mods; i++)
		free(v->mods[i].path);
	free(v->mods);
	free(v->stack_ok);
	memset(v, 0, sizeof(*v));
}

int lk_shmview_intact(const struct lk_shmview *v)
{
	struct lk_shm_header now;
	memcpy(&now, v->hdr, FIXED_PART);
	return memcmp(&now, &v->at_open, FIXED_PART) == 0 ? 0 : -EPROTO;
}

/* An entry's frames [first, first + depth) lie in the pool. */
static int entry_valid(uint32_t depth, uint32_t first)
{
	return depth > 0 && depth <= LK_MAX_FRAMES && (uint64_t)first + depth <= LK_FRAME_POOL;
}

int lk_shmview_check_stack(struct lk_shmview *v, uint32_t id)
{
	if (id == 0)
		return 0;
	if (id >= LK_STACK_ENTRIES)
		return -EPROTO;
	if (v->stack_ok && (v->stack_ok[id / 8] & (1u << (id % 8))))
		return 0;
	if (!v->stack_ok && !(v->stack_ok = calloc(LK_STACK_ENTRIES / 8, 1)))
		return -ENOMEM;
	/* the entry and its frames were written before the id was published,
	 * and the id before the event naming it (common/shm.h) */
	uint32_t count = atomic_load_explicit(&v->hdr->stack_count, memory_order_acquire);
	uint64_t used = atomic_load_explicit(&v->hdr->frames_used, memory_order_acquire);
	const struct lk_stack_entry *e = &v->entries[id];
	uint32_t depth = ONCE(e->depth), first = ONCE(e->first);
	if (id >= count || !entry_valid(depth, first) || (uint64_t)first + depth > used)
		return -EPROTO;
	v->stack_ok[id / 8] |= (uint8_t)(1u << (id % 8));
	if (id >= v->stack_end)
		v->stack_end = id + 1;
	return 0;
}

int lk_shmview_stack(const struct lk_shmview *v, uint32_t id, uint64_t ips[LK_MAX_FRAMES])
{
	if (id == 0 || id >= v->stack_end || !(v->stack_ok[id / 8] & (1u << (id % 8))))
		return 0;
	const struct lk_stack_entry *e = &v->entries[id];
	uint32_t depth = ONCE(e->depth), first = ONCE(e->first);
	if (!entry_valid(depth, first))
		return -EPROTO;
	memcpy(ips, v->frames + first, (size_t)depth * sizeof(*ips));
	return (int)depth;
}

int lk_shmview_verify_stacks(const struct lk_shmview *v)
{
	for (uint32_t id = 1; id < v->stack_end; id++) {
		if (!(v->stack_ok[id / 8] & (1u << (id % 8))))
			continue;
		const struct lk_stack_entry *e = &v->entries[id];
		if (!entry_valid(ONCE(e->depth), ONCE(e->first)))
			return -EPROTO;
	}
	return 0;
}

/* Copy entry i of the module table (written before its count was). */
static int copy_module(struct lk_shmview *v, uint32_t i)
{
	struct lk_module_entry e;
	memcpy(&e, &v->modules[i], sizeof(e));
	if (!memchr(e.path, 0, sizeof(e.path)))
		return -EPROTO;
	if (v->n_mods == v->cap_mods) {
		uint32_t cap = v->cap_mods ? v->cap_mods * 2 : 64;
		struct lk_shmview_module *a = realloc(v->mods, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		v->mods = a;
		v->cap_mods = cap;
	}
	char *path = strdup(e.path);
	if (!path)
		return -ENOMEM;
	v->mods[v->n_mods++] = (struct lk_shmview_module){.bias = e.bias, .lo = e.lo, .hi = e.hi,
							  .path = path};
	return 0;
}

int lk_shmview_sync_modules(struct lk_shmview *v)
{
	uint32_t n = atomic_load_explicit(&v->hdr->module_count, memory_order_acquire);
	if (n > LK_MODULES_MAX || n < v->n_mods)
		return -EPROTO;
	int rc = 0;
	while (!rc && v->n_mods < n)
		rc = copy_module(v, v->n_mods);
	return rc;
}

const struct lk_shmview_module *lk_shmview_module_of(const struct lk_shmview *v, uint64_t ip)
{
	for (uint32_t i = v->n_mods; i-- > 0;)
		if (ip >= v->mods[i].lo && ip < v->mods[i].hi)
			return &v->mods[i];
	return NULL;
}

int lk_shmview_mark_text(struct lk_shmview *v, uint64_t k, char text[LK_MARK_TEXT])
{
	struct lk_mark_slot *slot = &v->marks[k & (LK_MARK_SLOTS - 1)];
	if (atomic_load_explicit(&slot->seq, memory_order_acquire) != LK_MARK_DONE(k))
		return 0;
	uint32_t len = ONCE(slot->len);
	if (len >= LK_MARK_TEXT)
		return -EPROTO;
	memcpy(text, slot->text, len);
	text[len] = 0;
	atomic_store_explicit(&slot->seq, 0, memory_order_release);
	return 1;
}

void lk_shmview_abandon(struct lk_shmview *v)
{
	for (uint32_t i = 0; i < LK_RING_SLOTS; i++)
		atomic_store_explicit(&v->ring[i].seq, UINT64_MAX, memory_order_release);
}
