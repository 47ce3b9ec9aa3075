/* blocks.c - the live-block table of the trace analysis (see blocks.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "history/blocks.h"

#define HUGE_PAGE (2u << 20)
#define SPARSE_UPTO 65536u     /* slots (2 MiB) up to which tables stay half empty */

/* Zeroed slots. A table of 2 MiB or more is mapped on its own and asks for
 * huge pages: every lookup of a large table is a TLB miss otherwise. */
static struct lk_hblock *slots_new(size_t cap)
{
	size_t size = cap * sizeof(struct lk_hblock);
	if (size < HUGE_PAGE)
		return calloc(cap, sizeof(struct lk_hblock));
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

static void slots_free(struct lk_hblock *slots, size_t cap)
{
	size_t size = cap * sizeof(struct lk_hblock);
	if (size < HUGE_PAGE)
		free(slots);
	else if (slots)
		munmap(slots, size);
}

int lk_hblocks_init(struct lk_hblocks *t)
{
	memset(t, 0, sizeof(*t));
	t->cap = 1024;
	t->slots = slots_new(t->cap);
	return t->slots ? 0 : -ENOMEM;
}

void lk_hblocks_release(struct lk_hblocks *t)
{
	slots_free(t->slots, t->cap);
	memset(t, 0, sizeof(*t));
}

static void insert_new(struct lk_hblock *slots, size_t cap, const struct lk_hblock *b)
{
	size_t i = lk_hblocks_slot_of(cap, b->addr);
	while (slots[i].addr)
		i = (i + 1) & (cap - 1);
	slots[i] = *b;
}

static int grow(struct lk_hblocks *t)
{
	size_t cap = t->cap * 2;
	struct lk_hblock *slots = slots_new(cap);
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].addr)
			insert_new(slots, cap, &t->slots[i]);
	slots_free(t->slots, t->cap);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

/* Small tables (in the caches) are kept at most half full: shorter probe
 * runs; large ones three quarters: less memory to zero and to miss. */
static int full(const struct lk_hblocks *t)
{
	size_t n = t->count + 1;
	return t->cap <= SPARSE_UPTO ? n * 2 > t->cap : n * 4 > t->cap * 3;
}

int lk_hblocks_put(struct lk_hblocks *t, const struct lk_hblock *b, struct lk_hblock *old)
{
	if (full(t) && grow(t) != 0)
		return -ENOMEM;
	for (size_t i = lk_hblocks_slot_of(t->cap, b->addr);; i = (i + 1) & (t->cap - 1)) {
		struct lk_hblock *s = &t->slots[i];
		if (s->addr == b->addr) {
			*old = *s;
			t->bytes += b->size - s->size;
			*s = *b;
			return 1;
		}
		if (!s->addr) {
			*s = *b;
			t->count++;
			t->bytes += b->size;
			return 0;
		}
	}
}

int lk_hblocks_del(struct lk_hblocks *t, uint64_t addr, struct lk_hblock *out)
{
	size_t mask = t->cap - 1, i = lk_hblocks_slot_of(t->cap, addr);
	while (t->slots[i].addr != addr) {
		if (!t->slots[i].addr)
			return -1;
		i = (i + 1) & mask;
	}
	*out = t->slots[i];
	t->count--;
	t->bytes -= out->size;
	/* backward-shift deletion: pull later members of the run into the hole */
	for (size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
		if (!t->slots[j].addr)
			break;
		size_t home = lk_hblocks_slot_of(t->cap, t->slots[j].addr);
		/* j's entry may move to i if its home is not in (i, j] cyclically */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].addr = 0;
	return 0;
}
