/* text_style.c - colours of the text reports (see text_style.h). */
#include "report/text_style.h"

void lk_text_paint(FILE *out, const struct lk_text_style *st, enum lk_text_paint what)
{
	static const char *const sgr[] = {
		[LK_PAINT_PLAIN] = "", [LK_PAINT_LOST] = "\033[1;31m", [LK_PAINT_CLEAN] = "\033[1;32m",
		[LK_PAINT_HEAD] = "\033[1m", [LK_PAINT_FUNC] = "\033[1m",
		[LK_PAINT_PLACE] = "\033[36m", [LK_PAINT_DIM] = "\033[2m",
		[LK_PAINT_NOTE] = "\033[33m",
	};
	if (st && st->color && what != LK_PAINT_PLAIN)
		fputs(sgr[what], out);
}

void lk_text_plain(FILE *out, const struct lk_text_style *st)
{
	if (st && st->color)
		fputs("\033[0m", out);
}
