/*
 * model.h - the state an EVENTS chunk is coded against, shared by the
 * writer and the reader so that both sides keep it identically (format.h
 * says what it means on disk; docs/trace-format.md in prose).
 *
 * Per chunk, from empty: a table of the 3 threads last seen (most recent
 * first), each with its last address and, per size class, the address of
 * its last allocation and of its last freed block not yet reused; and, in
 * version 1.0 only, a ring of the chunk's latest allocations (address and
 * size), which FREE_REF records name by distance. An allocation's address
 * is coded against the thread's last freed block of its size class (what
 * malloc's per-thread caches hand out next), else its last allocation of
 * that class, else the thread's last address. In 1.0 a block counts as
 * freed for that when a FREE_REF names it; from 2.0 on, every FREE.
 */
#ifndef LK_TRACE_MODEL_H
#define LK_TRACE_MODEL_H

#include <string.h>

#include "trace/format.h"

struct lk_trace_thread {
	uint32_t tid;
	uint32_t slot;            /* its row in the class tables */
	uint64_t last;            /* last address of the thread */
};

struct lk_trace_model {
	struct lk_trace_thread thr[LK_TRACE_THREADS];
	int n_thr;
	uint64_t last_addr;       /* last address of the chunk */
	uint64_t ring_n;          /* allocations so far in the chunk */
	uint64_t cls_alloc[LK_TRACE_THREADS][LK_TRACE_CLASSES];
	uint64_t cls_free[LK_TRACE_THREADS][LK_TRACE_CLASSES];
	uint64_t ring[LK_TRACE_RING];
	uint64_t ring_size[LK_TRACE_RING];
};

/* Size class: 16-byte steps up to 1 KiB, then powers of two. */
static inline unsigned lk_trace_class(uint64_t size)
{
	if (size <= 1024)
		return (unsigned)((size + 15) >> 4);               /* 0..64 */
	unsigned bits = 64u - (unsigned)__builtin_clzll(size);  /* 11..64 */
	return 65u + (bits - 11u);                             /* 65..118 */
}

static inline void lk_trace_model_reset(struct lk_trace_model *m)
{
	m->n_thr = 0;
	m->last_addr = 0;
	m->ring_n = 0;
	memset(m->cls_alloc, 0, sizeof(m->cls_alloc));
	memset(m->cls_free, 0, sizeof(m->cls_free));
}

/* Index of tid in the thread table, or -1. */
static inline int lk_trace_model_find(const struct lk_trace_model *m, uint32_t tid)
{
	for (int i = 0; i < m->n_thr; i++)
		if (m->thr[i].tid == tid)
			return i;
	return -1;
}

/* Move entry i to the front; returns it. */
static inline struct lk_trace_thread *lk_trace_model_use(struct lk_trace_model *m, int i)
{
	struct lk_trace_thread e = m->thr[i];
	for (; i > 0; i--)
		m->thr[i] = m->thr[i - 1];
	m->thr[0] = e;
	return &m->thr[0];
}

/* A thread not in the table enters at the front (the last entry leaves). */
static inline struct lk_trace_thread *lk_trace_model_enter(struct lk_trace_model *m, uint32_t tid)
{
	struct lk_trace_thread e = {.tid = tid, .last = m->last_addr};
	if (m->n_thr < LK_TRACE_THREADS) {
		e.slot = (uint32_t)m->n_thr++;
	} else {
		e.slot = m->thr[m->n_thr - 1].slot;
		memset(m->cls_alloc[e.slot], 0, sizeof(m->cls_alloc[0]));
		memset(m->cls_free[e.slot], 0, sizeof(m->cls_free[0]));
	}
	m->thr[m->n_thr - 1] = e;
	return lk_trace_model_use(m, m->n_thr - 1);
}

/* What an allocation of class c by thread th is coded against. */
static inline uint64_t lk_trace_model_alloc_base(const struct lk_trace_model *m,
						 const struct lk_trace_thread *th, unsigned c)
{
	uint64_t a = m->cls_free[th->slot][c];
	if (a)
		return a;
	a = m->cls_alloc[th->slot][c];
	return a ? a : th->last;
}

static inline void lk_trace_model_alloc(struct lk_trace_model *m, struct lk_trace_thread *th,
					unsigned c, uint64_t addr)
{
	m->cls_free[th->slot][c] = 0;
	m->cls_alloc[th->slot][c] = addr;
	th->last = m->last_addr = addr;
}

/* A freed block of the given address and size (2.0 FREE, 1.0 FREE_REF). */
static inline void lk_trace_model_freed(struct lk_trace_model *m, struct lk_trace_thread *th,
					uint64_t addr, uint64_t size)
{
	m->cls_free[th->slot][lk_trace_class(size)] = addr;
	th->last = m->last_addr = addr;
}

/* 1.0: the allocation enters the ring. */
static inline void lk_trace_model_ring_put(struct lk_trace_model *m, uint64_t addr, uint64_t size)
{
	m->ring[m->ring_n % LK_TRACE_RING] = addr;
	m->ring_size[m->ring_n % LK_TRACE_RING] = size;
	m->ring_n++;
}

/* Allocations a FREE_REF may name: distances 1 .. this. */
static inline uint64_t lk_trace_model_ring_have(const struct lk_trace_model *m)
{
	return m->ring_n < LK_TRACE_RING ? m->ring_n : LK_TRACE_RING;
}

/* 1.0: a FREE_REF of distance d (1 <= d <= ring_have); returns the address. */
static inline uint64_t lk_trace_model_free_ref(struct lk_trace_model *m,
					       struct lk_trace_thread *th, uint64_t d)
{
	uint64_t k = (m->ring_n - d) % LK_TRACE_RING;
	lk_trace_model_freed(m, th, m->ring[k], m->ring_size[k]);
	return m->ring[k];
}

/* 1.0: a FREE by address. */
static inline void lk_trace_model_free(struct lk_trace_model *m, struct lk_trace_thread *th,
				       uint64_t addr)
{
	th->last = m->last_addr = addr;
}

#endif
