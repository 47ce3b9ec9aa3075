/*
 * idmap.h - an open-addressing map from 64-bit keys to dense ids (1, 2,
 * ...) in order of insertion: what the writers that number things as they
 * meet them (pprof's strings, functions and locations; the flame graph's
 * frames) share. Keys that stand for something larger (a string, a frame)
 * are its hash: the caller compares what the id names and, on a
 * collision, tries the next key (hash + 1, ...), which lookups find too.
 *
 * struct lk_intern does that comparing: it numbers distinct things (strings,
 * frames) from 0 and keeps a pointer to the first of each.
 *
 * Ownership: a map owns its arrays (lk_idmap_release), an intern table its
 * map and array, not the things it points to (lk_intern_release).
 */
#ifndef LK_REPORT_IDMAP_H
#define LK_REPORT_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct lk_idmap {
	uint64_t *keys;
	uint32_t *ids;            /* 0: empty slot */
	size_t cap, n;
};

/* An empty map. 0 or -ENOMEM. */
int lk_idmap_init(struct lk_idmap *m);
void lk_idmap_release(struct lk_idmap *m);

/* The id of key, 0 when it has none yet; *slot is where it would go. */
uint32_t lk_idmap_find(const struct lk_idmap *m, uint64_t key, size_t *slot);
/* Give key the next id (m->n after the call) at slot, from lk_idmap_find
 * just before. 0 or -ENOMEM. */
int lk_idmap_add(struct lk_idmap *m, uint64_t key, size_t slot);

/* FNV-1a of s (NULL as ""), continuing from h (0 to start). */
uint64_t lk_idmap_hash_string(uint64_t h, const char *s);

struct lk_intern {
	struct lk_idmap map;
	const void **items;       /* by index: the first thing of each kind */
	size_t n, cap;
	int (*same)(const void *a, const void *b);
};

/* An empty table; same(a, b) says whether a and b are the same thing. */
int lk_intern_init(struct lk_intern *t, int (*same)(const void *a, const void *b));
void lk_intern_release(struct lk_intern *t);
/* The index (from 0) of item, whose hash is hash, adding it when new.
 * 0 or -ENOMEM. */
int lk_intern(struct lk_intern *t, const void *item, uint64_t hash, size_t *index);

#endif
