/*
 * profile_harness.c - an input through a heap profile reader twice, from
 * memory and from a file, and through every timeline writer
 * (profile_harness.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze/timeline_diff.h"
#include "profile_harness.h"
#include "report/timeline/timeline_report.h"

static FILE *sink;
static int file_fd = -1;

/* The JSON report of f and the reader's counts (NULL if f could not be
 * read), and every other writer run once; the timeline read from memory
 * (first) gets the target's own checks. */
static char *report(const struct fuzz_profile *p, FILE *f, size_t *len, int first)
{
	struct lk_timeline tl;
	struct lk_profile_stats st;
	char *json = NULL;
	if (p->read(f, &tl, &st) != 0)
		return NULL;
	FILE *mem = open_memstream(&json, len);
	if (mem) {
		lk_timeline_write_json(&tl, mem);
		fprintf(mem, "\nevents %llu bytes %llu error %d\n", (unsigned long long)st.events,
			(unsigned long long)st.bytes, st.data_error);
		fclose(mem);
	}
	lk_timeline_write_text(&tl, sink, 0);
	struct lk_timeline_diff d;
	if (lk_timeline_diff_compute(&tl, &tl, &d) == 0) {
		lk_timeline_diff_write_text(&d, sink, 0);
		lk_timeline_diff_write_json(&d, sink);
		lk_timeline_diff_release(&d);
	}
	if (first && p->check)
		p->check(&tl);
	lk_timeline_release(&tl);
	return json;
}

/* A stream over a regular file holding data, or NULL. */
static FILE *as_file(const char *name, const uint8_t *data, size_t size)
{
	if (file_fd < 0)
		file_fd = memfd_create(name, 0);
	if (file_fd < 0 || ftruncate(file_fd, 0) ||
	    pwrite(file_fd, data, size, 0) != (ssize_t)size || lseek(file_fd, 0, SEEK_SET))
		return NULL;
	int fd = dup(file_fd);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	if (!f && fd >= 0)
		close(fd);
	return f;
}

void fuzz_profile_run(const struct fuzz_profile *p, const uint8_t *data, size_t size)
{
	if (!sink)
		sink = fopen("/dev/null", "w");
	FILE *in_memory = fmemopen((void *)data, size, "rb");
	FILE *in_file = as_file(p->name, data, size);
	if (!in_memory || !in_file)
		abort();
	size_t n_memory = 0, n_file = 0;
	char *a = report(p, in_memory, &n_memory, 1);
	char *b = report(p, in_file, &n_file, 0);
	if (!a != !b || n_memory != n_file || (a && memcmp(a, b, n_memory) != 0)) {
		fprintf(stderr, "read from memory and from a file differ\n");
		abort();
	}
	free(a);
	free(b);
	fclose(in_memory);
	fclose(in_file);
}
