/*
 * output.c - what every subcommand that writes a report shares: the
 * output file ("-" is standard output), its close with the one message of
 * a failure, and error texts as messages are written (lowercase first).
 */
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "cli/cli.h"
#include "common/error.h"

const char *lk_cli_errtext(int code)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s", lk_error_name(code));
	if (buf[0] >= 'A' && buf[0] <= 'Z')
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}

FILE *lk_cli_open_out(const char *path)
{
	/* Reports are written in many small pieces: with the default buffer
	 * (one page) a 1 MB report took 300 write(2) calls. 64 KiB, not more:
	 * each page of it is a fault the first time (a 10 MB eventlog's JSON
	 * report, 224 KB, was 3% faster than with 256 KiB). One report file
	 * is open at a time. */
	static char buffer[64 * 1024];
	FILE *f = !path || strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (!f) {
		lk_cli_error("cannot write '%s': %s", path, lk_cli_errtext(-errno));
		return NULL;
	}
	if (f != stdout)
		setvbuf(f, buffer, _IOFBF, sizeof(buffer));
	/* and without stdio's lock on every call (a tenth of an HTML report
	 * of many small writes): the commands write from one thread */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	return f;
}

int lk_cli_close_out(FILE *f, const char *path, int rc)
{
	if (f != stdout) {
		if (fclose(f) != 0 && rc == 0)
			rc = -EIO;
	} else if (fflush(f) != 0 && rc == 0) {
		rc = -EIO;
	}
	if (rc) {
		lk_cli_error("cannot write '%s': %s", path && strcmp(path, "-") ? path : "standard output",
			     lk_cli_errtext(rc));
		return 1;
	}
	return 0;
}
