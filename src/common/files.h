/*
 * files.h - opening the files a user names, safely.
 *
 * Reading: a regular file (or a FIFO or pipe, where the caller streams
 * and bounds what it reads), never a directory, a device or a socket. The
 * type is looked at before the open, so that a device is never opened (an
 * open of some has effects) and a FIFO the caller refuses never blocks it.
 *
 * Writing: never through a symbolic link another user owns (a link of
 * this user or of root, such as /dev/stdout, is followed, the whole chain
 * checked); a regular file, a pipe, a FIFO or a character device (a
 * terminal, /dev/null) - never a block device. A name leakscope made up
 * (LK_FILE_NEW) is created, never reused: O_CREAT | O_EXCL, so neither a
 * file nor a symbolic link that sits at it is touched. A chain of links is
 * checked, then opened: a link swapped in between by someone who may
 * write its directory would be followed (in a sticky directory such as
 * /tmp nobody else may swap this user's link).
 *
 * Both return a descriptor (O_CLOEXEC) or a negative code: -errno,
 * LK_ENOTREG (a type refused) or LK_EFOREIGN (a link of another user).
 * Nothing is printed.
 */
#ifndef LK_COMMON_FILES_H
#define LK_COMMON_FILES_H

#include <sys/types.h>

enum {
	LK_FILE_PIPE = 1,   /* read: a FIFO or pipe is taken too */
	LK_FILE_NEW = 2,    /* write: create it; -EEXIST when the name is taken */
	LK_FILE_TRUNC = 4,  /* write: an existing regular file is emptied */
};

/* Open path for reading; flags: LK_FILE_PIPE or 0. A FIFO blocks the
 * open until a writer comes, as it does for cat. */
int lk_file_open_read(const char *path, int flags);

/* Open path for writing; flags: LK_FILE_NEW, LK_FILE_TRUNC. mode (less
 * the umask) is a new file's; an existing file keeps its own. Without
 * LK_FILE_TRUNC an existing regular file keeps its bytes: the caller
 * writes over them from offset 0 and cuts the file where it ends. */
int lk_file_open_write(const char *path, int flags, mode_t mode);

#endif
