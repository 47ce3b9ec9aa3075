/*
 * text_style.h - how a text report looks on a terminal: whether frames
 * below main are shown, and ANSI colours (SGR sequences) when the
 * command decided its output gets them (cli: --color, NO_COLOR, a
 * terminal). Without colour every function here writes the text alone.
 */
#ifndef LK_REPORT_TEXT_STYLE_H
#define LK_REPORT_TEXT_STYLE_H

#include <stdio.h>

struct lk_text_style {
	int full_stacks;   /* the start-up frames below main (and a thread's start) too */
	int color;         /* ANSI colours */
};

/* What a colour marks. */
enum lk_text_paint {
	LK_PAINT_PLAIN,    /* nothing */
	LK_PAINT_LOST,     /* a summary that says bytes were lost */
	LK_PAINT_CLEAN,    /* a summary without leaks */
	LK_PAINT_HEAD,     /* the head of a group: bytes, objects, class */
	LK_PAINT_FUNC,     /* the function where the program allocated */
	LK_PAINT_PLACE,    /* file:line */
	LK_PAINT_DIM,      /* a module, a hint, what was left out */
	LK_PAINT_NOTE,     /* a note or a warning */
};

/* Start painting (nothing without colour). */
void lk_text_paint(FILE *out, const struct lk_text_style *st, enum lk_text_paint what);
/* Back to plain text (nothing without colour). */
void lk_text_plain(FILE *out, const struct lk_text_style *st);

#endif
