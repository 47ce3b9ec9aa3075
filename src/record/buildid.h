/*
 * buildid.h - the GNU build id of an ELF file (NT_GNU_BUILD_ID note), so
 * that a trace names the exact build of each module it was recorded with.
 */
#ifndef LK_RECORD_BUILDID_H
#define LK_RECORD_BUILDID_H

#include <stddef.h>
#include <stdint.h>

/* Copy the build id of the ELF file path into out (at most cap bytes).
 * Returns its length, 0 when the file has none, or a negative code. */
int lk_build_id(const char *path, uint8_t *out, size_t cap);

#endif
