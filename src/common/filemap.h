/*
 * filemap.h - a read-only window mapped over a regular file and moved
 * along as a reader advances: the bytes are read in place, without the
 * copy of read(2), and memory stays one window whatever the file's size.
 *
 * A file that shrinks while mapped would kill the process with SIGBUS at
 * the next touch of a page past its new end. While a window is mapped, a
 * SIGBUS handler puts a page of zeros there instead and notes it:
 * lk_filemap_shrunk() then tells the reader, which reports a truncation.
 * One window at a time per process (the readers of leakscope run one after
 * another); lk_filemap_open() answers -EBUSY to a second.
 */
#ifndef LK_COMMON_FILEMAP_H
#define LK_COMMON_FILEMAP_H

#include <stddef.h>
#include <stdint.h>

#define LK_FILEMAP_WINDOW (4u * 1024u * 1024u)

struct lk_filemap;

/* Map windows of fd (a regular file, which stays owned by the caller).
 * -ENODEV: not a regular file, or one of no size; -EBUSY: another window
 * is open; -ENOMEM. */
int lk_filemap_open(int fd, struct lk_filemap **out);

/* Map the window holding the file's bytes from offset at: *base is the
 * file offset of (*buf)[0] (at rounded down to 2 MiB), *len covers
 * LK_FILEMAP_WINDOW bytes or up to the file's end (looked up again, for a
 * file still being written): at least 2 MiB past at, or all the file has.
 * *eof says the window reaches the end. The previous window is gone.
 * 0 or -errno. */
int lk_filemap_move(struct lk_filemap *m, uint64_t at, const uint8_t **buf,
		    uint64_t *base, size_t *len, int *eof);

/* The file shrank since the window was mapped: bytes past its new end
 * read as zeros. *size gets the file's size now. */
int lk_filemap_shrunk(const struct lk_filemap *m, uint64_t *size);

void lk_filemap_close(struct lk_filemap *m);

#endif
