/*
 * regfile.c - open only regular files (regfile.h).
 *
 * The path is opened with O_PATH, which runs no device's open and never
 * blocks; its type is checked on that descriptor, and the file is then
 * opened for reading through /proc/self/fd: the same inode, whatever the
 * program renamed meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/regfile.h"

int lk_regfile_open(const char *path)
{
	int p = open(path, O_PATH | O_CLOEXEC);
	if (p < 0)
		return -errno;
	struct stat st;
	int rc = fstat(p, &st) != 0 ? -errno : S_ISREG(st.st_mode) ? 0 : -ENODEV;
	int fd = -1;
	if (rc == 0) {
		char self[64];
		snprintf(self, sizeof(self), "/proc/self/fd/%d", p);
		fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			rc = -errno;
	}
	close(p);
	return rc ? rc : fd;
}
