/*
 * symtab.h - what the frame addresses of a trace mean, from the trace
 * itself: its SYMBOL records (function, file:line, module; inlined frames)
 * and MODULE records (for addresses without a symbol: module + offset).
 * Never the local machine's files: a trace is reported anywhere.
 *
 * Memory follows the distinct frame addresses the trace symbolizes.
 * Strings handed out belong to the table until lk_symtab_release().
 */
#ifndef LK_HISTORY_SYMTAB_H
#define LK_HISTORY_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/timeline.h"
#include "trace/record.h"

struct lk_symtab_entry {
	uint64_t addr;            /* 0 = empty slot */
	struct lk_frame_text *frames;
	size_t n;
};

struct lk_symtab_module {
	char *name;               /* basename of the path */
	uint64_t load_bias;
	struct lk_trace_range *ranges;
	size_t n_ranges;
};

struct lk_symtab {
	struct lk_symtab_entry *slots;
	size_t cap, count;
	struct lk_symtab_module *modules;
	size_t n_modules;
};

int lk_symtab_init(struct lk_symtab *t);
void lk_symtab_release(struct lk_symtab *t);

/* Copy a SYMBOL record (the latest one for an address wins). */
int lk_symtab_add_symbol(struct lk_symtab *t, uint64_t addr,
			 const struct lk_frame_text *frames, size_t n);
/* Copy a MODULE record. */
int lk_symtab_add_module(struct lk_symtab *t, const struct lk_trace_module *m);

/* The latest module mapping addr, or NULL. */
const struct lk_symtab_module *lk_symtab_module_of(const struct lk_symtab *t, uint64_t addr);

/* The frames of a stack of n addresses, innermost first, inline frames
 * expanded: *out is a new array (the caller frees it, not its strings). */
int lk_symtab_resolve(const struct lk_symtab *t, const uint64_t *addrs, size_t n,
		      struct lk_frame_text **out, size_t *n_out);

#endif
