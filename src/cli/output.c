/*
 * output.c - what every subcommand that writes a report shares: the
 * output file ("-" is standard output), its close with the one message of
 * a failure, and error texts as messages are written (lowercase first).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/error.h"

#define OUT_BUFFER (64u * 1024u)

const char *lk_cli_errtext(int code)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s", lk_error_name(code));
	if (buf[0] >= 'A' && buf[0] <= 'Z')
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}

/* The file opened for writing without O_TRUNC: lk_cli_close_out() cuts
 * it to what was written. ext4 writes a file truncated to nothing back to
 * disk as it is closed (its guard for programs that replace a file
 * without fsync), which made every report over an existing file wait for
 * the disk: 0.17 ms, a tenth of a 10 MB eventlog's report. */
static FILE *open_for_overwrite(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

/* A regular file cut where the report ends (the rest of a longer report
 * it held before); other files (a pipe, a terminal, /dev/null) as they
 * are. */
static int cut_to_written(FILE *f)
{
	struct stat st;
	if (fflush(f) != 0)
		return -EIO;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	off_t end = ftello(f);
	if (end < 0)
		return -errno;
	return end == st.st_size || ftruncate(fileno(f), end) == 0 ? 0 : -errno;
}

FILE *lk_cli_open_out(const char *path)
{
	/* Reports are written in many small pieces: with the default buffer
	 * (one page) a 1 MB report took 300 write(2) calls. 64 KiB, not more
	 * (a 10 MB eventlog's JSON report, 224 KB, was 3% faster than with
	 * 256 KiB), from the heap: in the analysis commands' huge pages, not
	 * 16 page faults of its own (docs/performance.md). Made once, kept:
	 * one report file is open at a time. */
	static char *buffer;
	FILE *f = !path || strcmp(path, "-") == 0 ? stdout : open_for_overwrite(path);
	if (!f) {
		lk_cli_error("cannot write '%s': %s", path, lk_cli_errtext(-errno));
		return NULL;
	}
	if (f != stdout && (buffer || (buffer = malloc(OUT_BUFFER))))
		setvbuf(f, buffer, _IOFBF, OUT_BUFFER);
	/* and without stdio's lock on every call (a tenth of an HTML report
	 * of many small writes): the commands write from one thread */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	return f;
}

int lk_cli_close_out(FILE *f, const char *path, int rc)
{
	if (f != stdout) {
		int cut = cut_to_written(f);
		if (cut && rc == 0)
			rc = cut;
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
