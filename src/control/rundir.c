/* rundir.c - the private directory of control sockets (see rundir.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "control/rundir.h"

int lk_rundir_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n = xdg && *xdg ? snprintf(buf, size, "%s/leakscope", xdg)
			    : snprintf(buf, size, "/tmp/leakscope-%u", (unsigned)geteuid());
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* The directory at path is ours alone. */
static int secure(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return lk_error_set(-errno, "cannot use '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return lk_error_set(-ENOTDIR, "'%s' is not a directory; remove it", path);
	if (st.st_uid != geteuid())
		return lk_error_set(-EPERM, "'%s' belongs to uid %u, not to us (uid %u): refusing to "
				    "use it", path, (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & 077)
		return lk_error_set(-EPERM, "'%s' is accessible by other users (mode %04o): refusing "
				    "to use it (chmod 700 it)", path, (unsigned)(st.st_mode & 07777));
	return 0;
}

int lk_rundir_open(char *buf, size_t size, int create)
{
	int rc = lk_rundir_path(buf, size);
	if (rc)
		return lk_error_set(rc, "the control directory's path is too long");
	if (create && mkdir(buf, 0700) != 0 && errno != EEXIST)
		return lk_error_set(-errno, "cannot create '%s': %s", buf, strerror(errno));
	return secure(buf);
}
