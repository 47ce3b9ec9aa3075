/*
 * assets.h - files of src/report/assets/ compiled into the binary
 * (tools/embed.sh), so HTML reports are self-contained and need no install.
 */
#ifndef LK_REPORT_ASSETS_H
#define LK_REPORT_ASSETS_H

#include <stddef.h>

struct lk_asset {
	const char *name;
	const unsigned char *data;
	size_t len;
};

extern const struct lk_asset lk_assets[];

/* The asset called name (a file name in src/report/assets/), or NULL. */
const struct lk_asset *lk_asset_find(const char *name);

#endif
