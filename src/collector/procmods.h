/*
 * procmods.h - the modules (ELF files) a running process has mapped, read
 * from its /proc/PID/maps: what a recorded process's module table says,
 * for a process leakscope did not start (control/attach_check.h), so that
 * its globals and code addresses can be named.
 */
#ifndef LK_COLLECTOR_PROCMODS_H
#define LK_COLLECTOR_PROCMODS_H

#include <stdint.h>
#include <sys/types.h>

#include "collector/shmview.h"

/* Each file mapped from offset 0: its range (up to the end of its last
 * mapping) and load bias (its start less its first segment's address).
 * Returns 0 with *mods (release with lk_procmods_free), or a negative code
 * with lk_error_set() detail. */
int lk_procmods_read(pid_t pid, struct lk_shmview_module **mods, uint32_t *n);

void lk_procmods_free(struct lk_shmview_module *mods, uint32_t n);

#endif
