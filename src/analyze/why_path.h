/*
 * why_path.h - what keeps a group of blocks, for people (--why): the root
 * that holds the group's first block - a module's variable, a thread's
 * stack in some function, a register, a program's own memory, a GHC heap,
 * a block kept on purpose - and the chain of blocks from there down to it,
 * each by its size and allocation site. Built from what the scan kept
 * (collector/why.h).
 */
#ifndef LK_ANALYZE_WHY_PATH_H
#define LK_ANALYZE_WHY_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/timeline.h" /* struct lk_frame_text */

struct lk_session;
struct lk_symbolizer;

#define LK_WHY_STEPS_MAX 32

struct lk_why_step {
	uint64_t bytes;              /* the block's size */
	struct lk_frame_text site;   /* the first frame of its allocation stack */
};

struct lk_why_path {
	char *root;                  /* what holds the first block */
	struct lk_why_step *steps;   /* from that block down to the group's own */
	size_t n_steps;
	int cut;                     /* the chain was longer: its top is left out */
};

/* The path to the live block in slot of s (s->why must be there): 0 and
 * *out (release with lk_why_path_free), or -ENOMEM. */
int lk_why_path_of(const struct lk_session *s, struct lk_symbolizer *sym, size_t slot,
		   struct lk_why_path **out);

void lk_why_path_free(struct lk_why_path *p);

#endif
