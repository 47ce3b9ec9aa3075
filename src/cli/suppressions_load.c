/* suppressions_load.c - a command line's suppressions (suppressions_load.h). */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/suppressions_load.h"
#include "common/error.h"

/* A --suppressions file: a regular file or a pipe (`<(...)`), read up to
 * its limit (analyze/suppress.h). 0, or -1 after a message. */
static int load_file(struct lk_suppressions *sup, const char *path)
{
	FILE *f = lk_cli_open_in(path, LK_FILE_PIPE);
	if (!f)
		return -1;
	int rc = lk_suppressions_read(sup, f, path);
	lk_cli_close_in(f, path);
	if (rc == LK_EFORMAT || rc == LK_ELIMIT)
		lk_cli_error("%s", lk_error_detail());
	else if (rc)
		lk_cli_error("cannot read '%s': %s", path, lk_cli_errtext(rc));
	return rc ? -1 : 0;
}

int lk_cli_load_suppressions(struct lk_suppressions *sup, int builtin, const char *const *files,
			     size_t n)
{
	if (builtin && lk_suppressions_add_builtin(sup) != 0) {
		lk_cli_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (load_file(sup, files[i]) != 0)
			return -1;
	return 0;
}
