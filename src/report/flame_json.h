/*
 * flame_json.h - the data of the HTML page's flame graph and trees
 * (report.js, trees.js), from any list of stacks with values:
 *
 *   ,"flame": {"measures": [[key, title, unit], ...],
 *              "stacks": [[[values...], [frame, ...], site], ...],   frames outermost first
 *              "other": n,                                           stacks left out
 *              "frames": [[function, file, line, module, "0xOFFSET", inlined], ...]}
 *
 * One table of the distinct frames, so that a frame shared by a thousand
 * stacks is written once. Stacks past `max` are summed into one stack
 * named "[other sites]" (frames [-1], no site).
 */
#ifndef LK_REPORT_FLAME_JSON_H
#define LK_REPORT_FLAME_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/timeline.h"

#define LK_FLAME_MEASURES_MAX 8

struct lk_flame_stack {
	const struct lk_frame_text *frames;   /* innermost first */
	size_t n_frames;
	uint64_t values[LK_FLAME_MEASURES_MAX];
	uint32_t site;                        /* the id the page knows it by */
};

/* Stack i into *out (frames need only be filled for i < max); 0 or a
 * negative code. */
typedef int (*lk_flame_get)(void *arg, size_t i, size_t max, struct lk_flame_stack *out);

int lk_flame_json(FILE *f, const char *const measures[][3], size_t n_measures, size_t n,
		  size_t max, lk_flame_get get, void *arg);

#endif
