/*
 * files.c - opening the files a user names, safely (files.h): the type
 * checked before and after the open, symbolic links of other users not
 * followed, names leakscope made up created exclusively.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/files.h"

#define LINKS_MAX 40    /* the kernel's own limit of a path's links */

/* 0 when a file of mode m may be read, else why not. */
static int read_refused(mode_t m, int flags)
{
	if (S_ISREG(m) || (S_ISFIFO(m) && (flags & LK_FILE_PIPE)))
		return 0;
	return S_ISDIR(m) ? -EISDIR : LK_ENOTREG;
}

int lk_file_open_read(const char *path, int flags)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -errno;
	int rc = read_refused(st.st_mode, flags);
	if (rc)
		return rc;
	/* A name that became a FIFO since the stat does not block the open. */
	int fifo = S_ISFIFO(st.st_mode);
	int fd = open(path, O_RDONLY | O_CLOEXEC | (fifo ? 0 : O_NONBLOCK));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0)
		rc = -errno;
	else if (!(rc = read_refused(st.st_mode, flags)) && !fifo &&
		 fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
		rc = -errno;
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

/* Where the link at cur points: its text, relative to cur's directory. */
static int link_target(const char *cur, char *next, size_t size)
{
	char text[PATH_MAX];
	ssize_t n = readlink(cur, text, sizeof(text) - 1);
	if (n < 0)
		return -errno;
	text[n] = 0;
	const char *slash = strrchr(cur, '/');
	int dir = text[0] == '/' || !slash ? 0 : (int)(slash - cur + 1);
	if (snprintf(next, size, "%.*s%s", dir, cur, text) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* Every link of the chain that starts at path is this user's or root's:
 * 0, LK_EFOREIGN, or -errno. The walk ends at a name that is no link, or
 * that no longer names a file (a /proc/self/fd link to a pipe: the kernel
 * goes from there to the open file itself). */
static int links_trusted(const char *path)
{
	char cur[PATH_MAX], next[PATH_MAX];
	uid_t me = geteuid();
	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return -ENAMETOOLONG;
	for (int i = 0; i < LINKS_MAX; i++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return 0;
		if (st.st_uid != me && st.st_uid != 0)
			return LK_EFOREIGN;
		int rc = link_target(cur, next, sizeof(next));
		if (rc)
			return rc;
		memcpy(cur, next, sizeof(cur));
	}
	return -ELOOP;
}

int lk_file_open_write(const char *path, int flags, mode_t mode)
{
	int o = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (flags & LK_FILE_NEW ? O_EXCL : 0);
	int fd = open(path, o, mode);
	if (fd < 0 && errno == ELOOP && !(flags & LK_FILE_NEW)) {
		/* path is a symbolic link (or its directories loop) */
		int rc = links_trusted(path);
		if (rc)
			return rc;
		fd = open(path, o & ~O_NOFOLLOW, mode);
	}
	if (fd < 0)
		return -errno;
	struct stat st;
	int rc = 0;
	if (fstat(fd, &st) != 0)
		rc = -errno;
	else if (S_ISBLK(st.st_mode))
		rc = LK_ENOTREG;
	else if (S_ISREG(st.st_mode) && (flags & LK_FILE_TRUNC) && st.st_size > 0 &&
		 ftruncate(fd, 0) != 0)
		rc = -errno;
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}
