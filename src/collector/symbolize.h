/*
 * symbolize.h - return addresses of a traced process -> function, file:line,
 * inlined frames, module.
 *
 * Runs in the collector, never in the target. Reads DWARF (also separate
 * debug files found by build-id or .gnu_debuglink) and falls back to the ELF
 * symbol tables. Every module and every address is resolved once and kept.
 *
 * Ownership: the symbolizer owns its caches; frames it fills hold malloc'ed
 * copies owned by the caller, freed by lk_frame_text_release(). A symbolizer
 * is not thread-safe; a path must name the same file for its whole life.
 */
#ifndef LK_COLLECTOR_SYMBOLIZE_H
#define LK_COLLECTOR_SYMBOLIZE_H

#include <stdint.h>

#include "analyze/timeline.h" /* struct lk_frame_text */

struct lk_symbolizer;

/* 0 or -ENOMEM. */
int lk_symbolizer_new(struct lk_symbolizer **out);

/* Frees the symbolizer, its caches and all debug data (NULL is fine). */
void lk_symbolizer_free(struct lk_symbolizer *s);

/*
 * Symbolize one return address ip of the module loaded at bias (l_addr:
 * runtime address = ELF vaddr + bias) from the ELF file path.
 *
 * The call instruction (ip - 1) gives function and file:line; offset is
 * ip - bias. Fills up to max frames, innermost (inlined callee) first, the
 * last one the real function containing ip, with inlined = 1 on all others.
 * When the chain is longer than max, the innermost frames are left out.
 * A frame without a symbol still has module (basename) and offset.
 *
 * Returns the count (>= 1), or -EINVAL (bad arguments, ip below bias),
 * -errno when path cannot be opened, LK_EFORMAT when it is not an ELF file,
 * -ENOMEM; lk_error_detail() tells which file. On error nothing is filled.
 */
int lk_symbolize(struct lk_symbolizer *s, const char *path, uint64_t bias, uint64_t ip,
		 struct lk_frame_text *frames, int max);

/*
 * Read the symbols and the DWARF index of the ELF file path now, once (the
 * first lookup in a large module with debug information takes a tenth of a
 * second). 0, or as lk_symbolize for a file that cannot be read.
 */
int lk_symbolizer_warm(struct lk_symbolizer *s, const char *path);

/* Free the strings of one frame and clear them (NULL pointers are fine). */
void lk_frame_text_release(struct lk_frame_text *f);

#endif
