/* idmap.c - 64-bit keys to dense ids (idmap.h). */
#include <errno.h>
#include <stdlib.h>

#include "report/idmap.h"

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int grow(struct lk_idmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint32_t *ids = calloc(cap, sizeof(*ids));
	if (!keys || !ids) {
		free(keys);
		free(ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->ids[i])
			continue;
		size_t j = mix(m->keys[i]) & (cap - 1);
		while (ids[j])
			j = (j + 1) & (cap - 1);
		keys[j] = m->keys[i];
		ids[j] = m->ids[i];
	}
	free(m->keys);
	free(m->ids);
	m->keys = keys;
	m->ids = ids;
	m->cap = cap;
	return 0;
}

int lk_idmap_init(struct lk_idmap *m)
{
	*m = (struct lk_idmap){0};
	return grow(m);
}

void lk_idmap_release(struct lk_idmap *m)
{
	free(m->keys);
	free(m->ids);
	*m = (struct lk_idmap){0};
}

uint32_t lk_idmap_find(const struct lk_idmap *m, uint64_t key, size_t *slot)
{
	size_t j = mix(key) & (m->cap - 1);
	while (m->ids[j] && m->keys[j] != key)
		j = (j + 1) & (m->cap - 1);
	*slot = j;
	return m->ids[j];
}

int lk_idmap_add(struct lk_idmap *m, uint64_t key, size_t slot)
{
	m->keys[slot] = key;
	m->ids[slot] = (uint32_t)++m->n;
	return 2 * m->n >= m->cap ? grow(m) : 0;
}

uint64_t lk_idmap_hash_string(uint64_t h, const char *s)
{
	uint64_t x = h ? h : 0xcbf29ce484222325ull;
	for (; s && *s; s++)
		x = (x ^ (unsigned char)*s) * 0x100000001b3ull;
	return (x ^ 0xff) * 0x100000001b3ull;  /* the end: "ab"+"c" differs from "a"+"bc" */
}

int lk_intern_init(struct lk_intern *t, int (*same)(const void *a, const void *b))
{
	*t = (struct lk_intern){.same = same};
	return lk_idmap_init(&t->map);
}

void lk_intern_release(struct lk_intern *t)
{
	lk_idmap_release(&t->map);
	free(t->items);
	t->items = NULL;
	t->n = t->cap = 0;
}

int lk_intern(struct lk_intern *t, const void *item, uint64_t hash, size_t *index)
{
	for (uint64_t key = hash;; key++) {
		size_t slot;
		uint32_t id = lk_idmap_find(&t->map, key, &slot);
		if (id && !t->same(t->items[id - 1], item))
			continue;
		if (!id) {
			if (t->n == t->cap) {
				size_t cap = t->cap ? t->cap * 2 : 256;
				const void **v = realloc(t->items, cap * sizeof(*v));
				if (!v)
					return -ENOMEM;
				t->items = v;
				t->cap = cap;
			}
			t->items[t->n++] = item;
			int rc = lk_idmap_add(&t->map, key, slot);
			if (rc)
				return rc;
			id = (uint32_t)t->n;
		}
		*index = id - 1;
		return 0;
	}
}
