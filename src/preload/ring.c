/*
 * ring.c - publish one event into this process's ring (protocol in
 * common/shm.h). Lock-free and async-signal-safe: a fetch_add to reserve, a
 * few stores, a release store to commit. A full ring makes the producer wait
 * for the collector (back-pressure): dropping a free would invent a leak.
 * A producer that waits asks every 0.1 s whether the collector is still
 * there (liveness.c); when it is gone, recording stops and nobody waits.
 */
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "preload/preload.h"

static __thread uint32_t my_tid;

LK_HIDDEN void lk_ring_forget_thread(void)
{
	my_tid = 0;
}

#define LIVENESS_EVERY 2000 /* sleeps of 50 us: the collector is asked every 0.1 s */

/* Wait a little for the collector; 0 when it is gone (recording stopped). */
static int backoff(unsigned *spins)
{
	if (++*spins < 64) {
		__builtin_ia32_pause();
	} else if (*spins < 128) {
		sched_yield();
	} else {
		struct timespec ts = {0, 50 * 1000};
		nanosleep(&ts, NULL);
		if ((*spins - 128) % LIVENESS_EVERY == LIVENESS_EVERY - 1 &&
		    lk_liveness_collector_gone())
			lk_liveness_stop_recording();
		if (atomic_load_explicit(&lk_state, memory_order_relaxed) != LK_READY)
			return 0;
	}
	return 1;
}

LK_HIDDEN void lk_ring_emit(unsigned kind, uint64_t addr, uint64_t size, uint32_t stack)
{
	struct lk_shm_header *h = lk_region.hdr;
	if (__builtin_expect(my_tid == 0, 0))
		my_tid = (uint32_t)syscall(SYS_gettid);
	uint64_t pos = atomic_fetch_add_explicit(&h->ring_head, 1, memory_order_relaxed);
	uint64_t lap = LK_RING_LAP(pos);
	struct lk_slot *s = &lk_region.ring[pos & (LK_RING_SLOTS - 1)];
	unsigned spins = 0;
	for (;;) {
		uint64_t seq = atomic_load_explicit(&s->seq, memory_order_acquire);
		if (seq == lap)
			break;
		if (seq > lap)
			return; /* the collector gave up on this position */
		if (!backoff(&spins))
			return; /* the collector is gone */
	}
	s->addr = addr;
	s->kind_size = LK_EV_PACK(kind, size);
	s->stack = stack;
	s->tid = my_tid;
	atomic_store_explicit(&s->seq, lap + 1, memory_order_release);
}
