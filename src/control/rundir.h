/*
 * rundir.h - the per-user private directory that holds the control sockets
 * of running recordings: $XDG_RUNTIME_DIR/leakscope when XDG_RUNTIME_DIR is
 * set, else /tmp/leakscope-UID. It must be a real directory (not a link),
 * owned by us and closed to everyone else (mode 0700); anything else is
 * refused, never "fixed", since another user may have planted it.
 */
#ifndef LK_CONTROL_RUNDIR_H
#define LK_CONTROL_RUNDIR_H

#include <stddef.h>

/* Write the directory's path into buf. -ENAMETOOLONG if it does not fit. */
int lk_rundir_path(char *buf, size_t size);

/* The path, checked: created (0700) first when create is set and it does
 * not exist. Returns 0, or a negative code with lk_error_set() detail. */
int lk_rundir_open(char *buf, size_t size, int create);

#endif
