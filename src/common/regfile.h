/*
 * regfile.h - open a file whose name a traced program chose (a module's
 * path in its shared region, its executable) for reading, as the
 * collector, which may run as another user: only a regular file is
 * opened. A FIFO would block the collector for ever, and opening a device
 * can do things (a watchdog arms itself when opened).
 */
#ifndef LK_COMMON_REGFILE_H
#define LK_COMMON_REGFILE_H

/* A read-only descriptor (O_CLOEXEC) of path if it names a regular file;
 * -ENODEV if it names anything else, -errno if it cannot be opened. */
int lk_regfile_open(const char *path);

#endif
