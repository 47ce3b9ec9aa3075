/*
 * realloc-zero.c - realloc(p, 0) frees p in glibc (and returns NULL);
 * realloc(NULL, 0) allocates like malloc(0), and that block is then freed.
 * Nothing is left. Mirrors LSan's realloc_zero.
 *
 * A correct checker: nothing lost; exit status 0.
 *
 * EXPECT: rc 0
 */
#include "agree.h"

int main(void)
{
	char *p = malloc(1);
	agree_escape(p);
	if (realloc(p, 0) != NULL)
		agree_fail(__func__);
	void *q = realloc(NULL, 0);
	if (!q)
		agree_fail(__func__);
	free(q);
	return 0;
}
