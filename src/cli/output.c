/*
 * output.c - the files every subcommand opens at the user's word: the
 * report stream ("-" is standard output) with the one message of a
 * failure at its close, the inputs (common/files.h: regular files, pipes
 * where a command streams), and error texts as messages are written
 * (lowercase first).
 *
 * A report goes through a stream of our own (fopencookie) over the
 * descriptor, so that the first failed write(2) keeps its errno: the
 * message names the cause ("no space left on device", "broken pipe"),
 * not stdio's "input/output error". A pipe being read goes through one
 * too, which stops an endless writer at LK_CLI_PIPE_MAX bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/error.h"
#include "common/files.h"

#define OUT_BUFFER (64u * 1024u)

const char *lk_cli_errtext(int code)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s", lk_error_name(code));
	if (buf[0] >= 'A' && buf[0] <= 'Z')
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}

/* The report being written: one at a time. */
static struct out {
	int fd;
	int own;            /* opened here: closed here, and cut where the report ends */
	int err;            /* errno of the first failed write, 0 if none */
	off_t written;      /* bytes written from offset 0 */
	const char *name;   /* for the message: the path, or "standard output" */
} cur;

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
	struct out *o = cookie;
	for (size_t done = 0; done < n && !o->err; ) {
		ssize_t k = write(o->fd, buf + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			o->err = k < 0 ? errno : EIO;
			break;
		}
		done += (size_t)k;
		o->written += k;
	}
	return o->err ? 0 : (ssize_t)n;   /* 0: stdio marks the stream failed */
}

static FILE *wrap(int fd, int own, const char *name)
{
	/* Reports are written in many small pieces: with the default buffer
	 * (one page) a 1 MB report took 300 write(2) calls. 64 KiB, not more
	 * (a 10 MB eventlog's JSON report, 224 KB, was 3% faster than with
	 * 256 KiB), from the heap: in the analysis commands' huge pages, not
	 * 16 page faults of its own (docs/performance.md). Made once, kept. */
	static char *buffer;
	cur = (struct out){.fd = fd, .own = own, .name = name};
	cookie_io_functions_t io = {.write = out_write};
	FILE *f = fopencookie(&cur, "w", io);
	if (!f)
		return NULL;
	if (buffer || (buffer = malloc(OUT_BUFFER)))
		setvbuf(f, buffer, _IOFBF, OUT_BUFFER);
	/* and without stdio's lock on every call (a tenth of an HTML report
	 * of many small writes): the commands write from one thread */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	return f;
}

/* A file opened here is written over from offset 0, without O_TRUNC, and
 * cut where the report ends (the rest of a longer report it held before).
 * ext4 writes a file truncated to nothing back to disk as it is closed
 * (its guard for programs that replace a file without fsync), which made
 * every report over an existing file wait for the disk: 0.17 ms, a tenth
 * of a 10 MB eventlog's report. Other files (a pipe, a terminal,
 * /dev/null) are left as they are. */
static int cut_to_written(const struct out *o)
{
	struct stat st;
	if (fstat(o->fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size == o->written)
		return 0;
	return ftruncate(o->fd, o->written) == 0 ? 0 : -errno;
}

FILE *lk_cli_open_out(const char *path)
{
	int std = !path || strcmp(path, "-") == 0;
	int fd = std ? STDOUT_FILENO : lk_file_open_write(path, 0, 0666);
	FILE *f = NULL;
	if (fd >= 0) {
		fflush(stdout);   /* what stdio held goes first */
		f = wrap(fd, !std, std ? "standard output" : path);
		if (!f && !std)
			close(fd);
	}
	if (!f)
		lk_cli_error("cannot write '%s': %s", std ? "standard output" : path,
			     lk_cli_errtext(fd < 0 ? fd : -ENOMEM));
	return f;
}

int lk_cli_out_fd(void)
{
	return cur.fd;
}

FILE *lk_cli_open_stderr(void)
{
	FILE *f = wrap(STDERR_FILENO, 0, "standard error");
	if (!f)
		lk_cli_error("cannot write 'standard error': %s", lk_cli_errtext(-ENOMEM));
	return f;
}

int lk_cli_close_out(FILE *f, int rc)
{
	struct out *o = &cur;
	if (fflush(f) != 0 && rc == 0)
		rc = -EIO;
	if (o->err && (rc == 0 || rc == -EIO))
		rc = -o->err;   /* the cause, where a writer saw only a failed stream */
	fclose(f);
	if (o->own) {
		int cut = cut_to_written(o);
		if (cut && rc == 0)
			rc = cut;
		/* a file system may say only now that the bytes did not fit */
		if (close(o->fd) != 0 && rc == 0)
			rc = -errno;
	}
	if (rc) {
		lk_cli_error("cannot write '%s': %s", o->name, lk_cli_errtext(rc));
		return 1;
	}
	return 0;
}

/* The pipe being read: one at a time. Past LK_CLI_PIPE_MAX bytes it reads
 * as ended, so that an endless writer (a header, then zeros for ever)
 * does not keep a command reading for ever; the reader then says where
 * the input is cut, and lk_cli_close_in() why. */
static struct in {
	FILE *f;
	int fd;
	uint64_t read;
	int over;
} pipe_in;

static ssize_t in_read(void *cookie, char *buf, size_t n)
{
	struct in *i = cookie;
	if (i->read >= LK_CLI_PIPE_MAX) {
		i->over = 1;
		return 0;
	}
	if (n > LK_CLI_PIPE_MAX - i->read)
		n = (size_t)(LK_CLI_PIPE_MAX - i->read);
	ssize_t k;
	while ((k = read(i->fd, buf, n)) < 0 && errno == EINTR)
		;
	if (k > 0)
		i->read += (uint64_t)k;
	return k;
}

static int in_close(void *cookie)
{
	struct in *i = cookie;
	return close(i->fd);
}

FILE *lk_cli_open_in(const char *path, int flags)
{
	int fd = lk_file_open_read(path, flags);
	struct stat st;
	FILE *f = NULL;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		cookie_io_functions_t io = {.read = in_read, .close = in_close};
		pipe_in = (struct in){.fd = fd};
		f = pipe_in.f = fopencookie(&pipe_in, "rb", io);
	} else if (fd >= 0) {
		f = fdopen(fd, "rb");
	}
	if (!f) {
		int rc = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
		lk_cli_error("cannot open '%s': %s", path, lk_cli_errtext(rc));
	}
	return f;
}

int lk_cli_close_in(FILE *f, const char *path)
{
	int over = f == pipe_in.f && pipe_in.over;
	if (f == pipe_in.f)
		pipe_in.f = NULL;
	fclose(f);
	if (over)
		lk_cli_error("stopped reading '%s' after %llu GiB, the most read from a pipe "
			     "(a regular file is read whole)", path,
			     (unsigned long long)(LK_CLI_PIPE_MAX >> 30));
	return over;
}
