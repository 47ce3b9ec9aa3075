/*
 * livemap.h - the live blocks of a trace as its coding needs them while it
 * is written or read record by record: a hash map from a 64-bit key (an
 * address, or an allocation's number) to two values (the number or the
 * address, and the size). The writer finds the number of the block a free
 * names by its address; the reader gives a free its address back (and, in
 * version 1.0 traces, its number).
 *
 * Open addressing with linear probing and backward-shift deletion, at most
 * half full: memory follows the live blocks (48 to 96 bytes each), never
 * the number of events. Not thread-safe.
 */
#ifndef LK_TRACE_LIVEMAP_H
#define LK_TRACE_LIVEMAP_H

#include <stddef.h>
#include <stdint.h>

struct lk_livemap_entry {
	uint64_t key1;     /* key + 1; 0: empty slot */
	uint64_t a, b;
};

struct lk_livemap {
	struct lk_livemap_entry *slots;
	size_t cap;        /* power of two */
	size_t count;      /* keys in the slots */
	int has_top;       /* the key UINT64_MAX (whose key + 1 is 0) is set, */
	struct lk_livemap_entry top;   /* with these values, outside the slots */
};

/* 0 or -ENOMEM. */
int lk_livemap_init(struct lk_livemap *m);
void lk_livemap_release(struct lk_livemap *m);

/* The entry of key, or NULL. */
struct lk_livemap_entry *lk_livemap_get(const struct lk_livemap *m, uint64_t key);

/* Set key to (a, b), whether it was there or not: 0 or -ENOMEM. */
int lk_livemap_put(struct lk_livemap *m, uint64_t key, uint64_t a, uint64_t b);

/* Remove key, copying its values to *a and *b: 0, or -1 when absent. */
int lk_livemap_del(struct lk_livemap *m, uint64_t key, uint64_t *a, uint64_t *b);

#endif
