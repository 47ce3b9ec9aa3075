/* assets.c - lookup in the table of embedded report assets. */
#include <string.h>

#include "report/assets.h"

const struct lk_asset *lk_asset_find(const char *name)
{
	for (const struct lk_asset *a = lk_assets; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}
