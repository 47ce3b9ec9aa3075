/*
 * text_frames.h - the pieces every text report shares: numbers with
 * thousands separators, and a stack printed one frame a line (number,
 * function or module+offset, file:line, module, [inlined]) with its columns
 * as wide as that stack's longest entries need, long names shortened
 * (short_name.h) so that the columns hold.
 */
#ifndef LK_REPORT_TEXT_FRAMES_H
#define LK_REPORT_TEXT_FRAMES_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/timeline.h"
#include "report/text_style.h"

/* 1234567 -> "1,234,567" in buf (at least 32 bytes). */
const char *lk_grouped(uint64_t v, char *buf, size_t size);

/* The frames of one stack, each line starting with indent: without the
 * start-up frames at its bottom unless st->full_stacks (st may be NULL:
 * no colour, no start-up frames). */
void lk_text_frames(FILE *out, const char *indent, const struct lk_frame_text *f, size_t n,
		    const struct lk_text_style *st);

/* "INDENT... and N more allocation sites (--top 0 lists them all)": what
 * a list cut at --top left out (nothing when more is 0). */
void lk_text_more_sites(FILE *out, const char *indent, size_t more,
			const struct lk_text_style *st);

#endif
