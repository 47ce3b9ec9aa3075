/*
 * array.c - arrays that grow by doubling (array.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"

int lk_array_grow(void *pptr, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : first;
	while (nc < need)
		nc *= 2;
	void *np = realloc(*(void **)pptr, nc * elem);
	if (!np)
		return -ENOMEM;
	*(void **)pptr = np;
	*cap = nc;
	return 0;
}

int lk_array_grow_zeroed(void *pptr, size_t elem, size_t n, size_t new_n)
{
	char *na = realloc(*(void **)pptr, new_n * elem);
	if (!na)
		return -ENOMEM;
	memset(na + n * elem, 0, (new_n - n) * elem);
	*(void **)pptr = na;
	return 0;
}
