/* why.c - what keeps a block (why.h). */
#include <stdlib.h>

#include "collector/why.h"

void lk_why_free(struct lk_why *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n_roots; i++)
		free(w->roots[i].name);
	free(w->roots);
	free(w->blocks);
	free(w);
}
