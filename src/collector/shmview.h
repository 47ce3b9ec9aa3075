/*
 * shmview.h - the collector's view of one traced process's shared region
 * (common/shm.h): the program can write any byte of it at any time, so
 * nothing read from it is trusted.
 *
 * The header is copied once when the region is mapped and checked against
 * the layout the collector computes itself (lk_shm_layout); no offset or
 * size is ever read from the region again. Every other value is read once,
 * into a local, and checked against constants of common/shm.h before it is
 * used: stack ids and frame ranges, the module count, each module's path
 * (NUL-terminated inside its buffer, then copied), mark text lengths. The
 * only addresses the collector writes to (ring slots' and mark slots'
 * seq) are computed from its own layout and an index it masked.
 *
 * Functions that find the region inconsistent return -EPROTO: the session
 * then gives up on it (collector/session.h).
 */
#ifndef LK_COLLECTOR_SHMVIEW_H
#define LK_COLLECTOR_SHMVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "common/shm.h"

/* A module table entry, copied out of the region. */
struct lk_shmview_module {
	uint64_t bias, lo, hi;
	char *path;             /* owned; "" for the main program */
};

struct lk_shmview {
	void *base;                         /* the mapping, size bytes */
	uint64_t size;
	struct lk_shm_header *hdr;          /* for its counters only */
	struct lk_slot *ring;               /* LK_RING_SLOTS */
	const struct lk_stack_entry *entries;
	const uint64_t *frames;
	const struct lk_module_entry *modules;
	struct lk_mark_slot *marks;         /* LK_MARK_SLOTS */
	struct lk_shm_header at_open;       /* the header as it was checked */
	uint8_t *stack_ok;                  /* a bit per stack id found valid */
	uint32_t stack_end;                 /* above every id found valid */
	struct lk_shmview_module *mods;     /* the module table copied so far */
	uint32_t n_mods, cap_mods;
};

/* Map the region of memfd (not consumed) and check its header. -EPROTO:
 * not a region of this version and layout, or a memfd not sealed against
 * shrinking (F_SEAL_SHRINK: the collector's reads past a new end would
 * fault). */
int lk_shmview_map(struct lk_shmview *v, int memfd);
void lk_shmview_release(struct lk_shmview *v);

/* 0 while the header's fixed part (magic ... offsets) is as it was
 * checked; -EPROTO once the program wrote over it. */
int lk_shmview_intact(const struct lk_shmview *v);

/* An event names stack id: check, the first time, that the id was handed
 * out and its entry's frames lie in the pool. 0 (id 0 is "none") or
 * -EPROTO. */
int lk_shmview_check_stack(struct lk_shmview *v, uint32_t id);

/* Copy the frames of a stack id found valid into ips (innermost first).
 * Returns the depth, 0 for id 0 or an id never named by an event, or
 * -EPROTO when its entry was rewritten since. */
int lk_shmview_stack(const struct lk_shmview *v, uint32_t id, uint64_t ips[LK_MAX_FRAMES]);

/* 0 when every stack found valid still is, else -EPROTO. */
int lk_shmview_verify_stacks(const struct lk_shmview *v);

/* Copy the module table's entries added since the last call. 0 or
 * -EPROTO (a count past LK_MODULES_MAX or going back, a path without
 * its NUL), or -ENOMEM. */
int lk_shmview_sync_modules(struct lk_shmview *v);

/* The copied module whose [lo, hi) holds ip, the latest first; NULL. */
const struct lk_shmview_module *lk_shmview_module_of(const struct lk_shmview *v, uint64_t ip);

/* The text of mark k (common/shm.h, "Mark texts"), into text with its NUL,
 * and free its slot. 1: copied; 0: the slot does not hold mark k;
 * -EPROTO: its length is past the slot. */
int lk_shmview_mark_text(struct lk_shmview *v, uint64_t k, char text[LK_MARK_TEXT]);

/* Give up on every ring position: each slot's seq becomes UINT64_MAX, so
 * that the program's threads drop their events instead of waiting for a
 * collector that no longer reads them. */
void lk_shmview_abandon(struct lk_shmview *v);

#endif
