/* livemap.c - live blocks by address or by number (see livemap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/livemap.h"

#define FIRST_CAP 1024u

static inline size_t home(size_t cap, uint64_t key1)
{
	return (size_t)((key1 * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

int lk_livemap_init(struct lk_livemap *m)
{
	m->count = 0;
	m->has_top = 0;
	m->cap = FIRST_CAP;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	return m->slots ? 0 : -ENOMEM;
}

void lk_livemap_release(struct lk_livemap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

struct lk_livemap_entry *lk_livemap_get(const struct lk_livemap *m, uint64_t key)
{
	if (key == UINT64_MAX)   /* a damaged trace's address */
		return m->has_top ? (struct lk_livemap_entry *)&m->top : NULL;
	uint64_t k = key + 1;
	for (size_t i = home(m->cap, k);; i = (i + 1) & (m->cap - 1)) {
		if (m->slots[i].key1 == k)
			return &m->slots[i];
		if (!m->slots[i].key1)
			return NULL;
	}
}

static int grow(struct lk_livemap *m)
{
	size_t cap = m->cap * 2;
	struct lk_livemap_entry *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t j = 0; j < m->cap; j++) {
		if (!m->slots[j].key1)
			continue;
		size_t i = home(cap, m->slots[j].key1);
		while (slots[i].key1)
			i = (i + 1) & (cap - 1);
		slots[i] = m->slots[j];
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int lk_livemap_put(struct lk_livemap *m, uint64_t key, uint64_t a, uint64_t b)
{
	if (key == UINT64_MAX) {
		m->has_top = 1;
		m->top = (struct lk_livemap_entry){.a = a, .b = b};
		return 0;
	}
	if ((m->count + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	uint64_t k = key + 1;
	size_t i = home(m->cap, k);
	while (m->slots[i].key1 && m->slots[i].key1 != k)
		i = (i + 1) & (m->cap - 1);
	if (!m->slots[i].key1)
		m->count++;
	m->slots[i] = (struct lk_livemap_entry){.key1 = k, .a = a, .b = b};
	return 0;
}

int lk_livemap_del(struct lk_livemap *m, uint64_t key, uint64_t *a, uint64_t *b)
{
	struct lk_livemap_entry *e = lk_livemap_get(m, key);
	if (!e)
		return -1;
	*a = e->a;
	*b = e->b;
	if (e == &m->top) {
		m->has_top = 0;
		return 0;
	}
	m->count--;
	size_t mask = m->cap - 1, i = (size_t)(e - m->slots);
	/* backward-shift deletion: pull later members of the run into the hole */
	for (size_t j = (i + 1) & mask; m->slots[j].key1; j = (j + 1) & mask) {
		size_t h = home(m->cap, m->slots[j].key1);
		if (((j - h) & mask) >= ((j - i) & mask)) {
			m->slots[i] = m->slots[j];
			i = j;
		}
	}
	m->slots[i].key1 = 0;
	return 0;
}
