/*
 * hp.c - read GHC's .hp heap profile text into a timeline (hp.h).
 *
 * Line by line: header lines, then samples of `band<TAB>bytes` lines
 * between BEGIN_SAMPLE and END_SAMPLE, and MARK lines. Bands are looked up
 * by name (band_index.h) and their values kept over the censuses in
 * bounded memory (census.h), and the timeline finished (heap_timeline.h),
 * as for an eventlog, so the two readings of one run give the same bands,
 * values and warnings. Never prints; a line that
 * cannot be read ends the reading with its number and what was expected.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "common/array.h"
#include "common/error.h"
#include "eventlog/band_index.h"
#include "eventlog/census.h"
#include "eventlog/heap_timeline.h"
#include "eventlog/hp.h"

#define LINE_MAX_BYTES 65536  /* longer lines are not of the format */
#define TIME_MAX 1.8e10       /* seconds: 2^64 ns, an eventlog's limit too */
#define KEY_PAD 8             /* readable bytes before a band key (band_index.h) */
#define EMPTY_MAX 1024        /* empty samples after a census kept before
			       * they are read as censuses */

struct hp {
	FILE *f;
	struct lk_timeline *tl;
	char *line;              /* the current line, without its end */
	size_t line_cap, len, lineno;
	int ended;               /* the line had its "\n" */
	char *key;               /* KEY_PAD bytes, then the band name */
	size_t key_cap;
	struct lk_census census;
	struct lk_band_index bands;
	size_t cap_markers;
	int in_sample;           /* between BEGIN_SAMPLE and END_SAMPLE */
	size_t sample_line;      /* ... of the open sample */
	double sample_t;
	int sample_begun;        /* its census begun: it has a band line */
	double *empty;           /* times of the empty samples since the last census */
	size_t n_empty, cap_empty;
	int have_values;         /* a VALUE_UNIT line was read */
};

/* Shown as it is, printable: the line's text between s and its end. */
static char *shown(const char *s, size_t n)
{
	enum { SHOW = 40 };
	char buf[4 * SHOW + 4];
	size_t o = 0;
	for (size_t i = 0; i < n && i < SHOW; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch < 0x7f && ch != '\\')
			buf[o++] = (char)ch;
		else
			o += (size_t)sprintf(buf + o, "\\x%02x", ch);
	}
	if (n > SHOW)
		o += (size_t)sprintf(buf + o, "...");
	buf[o] = 0;
	return strdup(buf);
}

/* LK_EFORMAT: line h->lineno is not what was expected. */
static int bad_line(struct hp *h, const char *expected)
{
	char *s = shown(h->line, h->len);
	int rc = lk_error_set(LK_EFORMAT, "line %zu: expected %s, found '%s'", h->lineno,
			      expected, s ? s : "");
	free(s);
	return rc;
}

/* The next line into h->line (its end, "\n" or "\r\n", cut): 1, 0 at the
 * end of the file, or a negative code. */
static int next_line(struct hp *h)
{
	ssize_t n = getline(&h->line, &h->line_cap, h->f);
	if (n < 0) {
		if (ferror(h->f))
			return lk_error_set(-EIO, "cannot read line %zu", h->lineno + 1);
		return 0;
	}
	h->lineno++;
	h->len = (size_t)n;
	h->ended = h->len > 0 && h->line[h->len - 1] == '\n';
	if (h->ended)
		h->len--;
	if (h->len > 0 && h->line[h->len - 1] == '\r')
		h->len--;
	h->line[h->len] = 0;
	if (h->len > LINE_MAX_BYTES)
		return lk_error_set(LK_EFORMAT, "line %zu: longer than %d bytes", h->lineno,
				    LINE_MAX_BYTES);
	if (memchr(h->line, 0, h->len))
		return lk_error_set(LK_EFORMAT, "line %zu: a NUL byte (not a .hp text file)",
				    h->lineno);
	return 1;
}

/* Whether the line is WORD, then a space or its end: *rest after it. */
static int keyword(const struct hp *h, const char *word, const char **rest)
{
	size_t n = strlen(word);
	if (h->len < n || memcmp(h->line, word, n) != 0 ||
	    (h->line[n] != ' ' && h->line[n] != '\t' && h->line[n] != 0))
		return 0;
	const char *s = h->line + n;
	while (*s == ' ' || *s == '\t')
		s++;
	*rest = s;
	return 1;
}

/* The quoted string of a header line ("..." to the last '"'). */
static int quoted(struct hp *h, const char *s, const char *what, char **out)
{
	const char *end = strrchr(s, '"');
	if (*s != '"' || end == s) {
		char e[64];
		snprintf(e, sizeof(e), "%s \"...\"", what);
		return bad_line(h, e);
	}
	size_t n = (size_t)(end - s - 1);
	if (!(*out = malloc(n + 1)))
		return -ENOMEM;
	memcpy(*out, s + 1, n);
	(*out)[n] = 0;
	return 0;
}

/* A time in seconds after a keyword: a finite number, 0 to TIME_MAX. */
static int time_of(struct hp *h, const char *s, const char *what, double *t)
{
	char *end;
	errno = 0;
	*t = strtod(s, &end);
	while (end != s && (*end == ' ' || *end == '\t'))
		end++;
	if (end == s || *end || !(*t >= 0 && *t <= TIME_MAX)) {
		char e[64];
		snprintf(e, sizeof(e), "%s and a time in seconds", what);
		return bad_line(h, e);
	}
	return 0;
}

/* ---- header ----------------------------------------------------------- */

/* JOB "program args": the program, and the title its file name. */
static int on_job(struct hp *h, const char *rest)
{
	char *job;
	int rc = quoted(h, rest, "JOB", &job);
	if (rc)
		return rc;
	size_t n = strcspn(job, " ");
	char *arg0 = strndup(job, n);
	if (!arg0) {
		free(job);
		return -ENOMEM;
	}
	const char *slash = strrchr(arg0, '/');
	free(h->tl->title);
	h->tl->title = *arg0 ? strdup(slash ? slash + 1 : arg0) : NULL;
	free(arg0);
	return lk_heap_timeline_meta(h->tl, "program", job);
}

/* SAMPLE_UNIT or VALUE_UNIT "unit": other than expected, a warning (the
 * numbers are read as seconds and bytes all the same). */
static int on_unit(struct hp *h, const char *rest, const char *what, const char *expected)
{
	char *unit;
	int rc = quoted(h, rest, what, &unit);
	if (rc)
		return rc;
	if (strcmp(unit, expected) != 0)
		rc = lk_heap_timeline_warn(h->tl, "line %zu: %s \"%s\", read as %s", h->lineno,
					   what, unit, expected);
	free(unit);
	return rc;
}

static int header_line(struct hp *h, int *done)
{
	const char *rest;
	char *v;
	int rc;
	*done = 1;
	if (keyword(h, "JOB", &rest))
		return on_job(h, rest);
	if (keyword(h, "DATE", &rest))
		return (rc = quoted(h, rest, "DATE", &v)) ? rc : lk_heap_timeline_meta(h->tl, "start", v);
	if (keyword(h, "SAMPLE_UNIT", &rest))
		return on_unit(h, rest, "SAMPLE_UNIT", "seconds");
	if (keyword(h, "VALUE_UNIT", &rest)) {
		h->have_values = 1;
		return on_unit(h, rest, "VALUE_UNIT", "bytes");
	}
	*done = 0;
	return 0;
}

/* ---- samples ---------------------------------------------------------- */

static int on_mark(struct hp *h, const char *rest)
{
	double t;
	int rc = time_of(h, rest, "MARK", &t);
	if (rc)
		return rc;
	struct lk_timeline *tl = h->tl;
	if (lk_array_grow(&tl->markers, &h->cap_markers, tl->n_markers + 1,
			  sizeof(*tl->markers), 16))
		return -ENOMEM;
	char *text = strdup("");
	if (!text)
		return -ENOMEM;
	tl->markers[tl->n_markers++] = (struct lk_marker){t, text};
	return 0;
}

/* The empty samples kept since the last census are censuses (nothing
 * live): a census came before them, and one after, or too many came to be
 * the one GHC writes when profiling ends. */
static int empty_censuses(struct hp *h)
{
	int rc;
	for (size_t i = 0; i < h->n_empty; i++)
		if ((rc = lk_census_begin(&h->census, h->empty[i])) ||
		    (rc = lk_census_end(&h->census)))
			return rc;
	h->n_empty = 0;
	return 0;
}

/* The open sample's first band: the empty samples before it are
 * censuses; then its census begins. */
static int begin_census(struct hp *h)
{
	int rc = empty_censuses(h);
	if (rc)
		return rc;
	lk_band_index_census(&h->bands);
	h->sample_begun = 1;
	return lk_census_begin(&h->census, h->sample_t);
}

/* band<TAB>bytes (or, without a tab, the last word is the bytes). */
static int on_band(struct hp *h)
{
	static const char expected[] = "'band<TAB>bytes' or END_SAMPLE";
	char *sep = memrchr(h->line, '\t', h->len);
	if (!sep)
		sep = memrchr(h->line, ' ', h->len);
	if (!sep || sep == h->line)
		return bad_line(h, expected);
	const char *v = sep + 1;
	char *end;
	while (*v == ' ' || *v == '\t')
		v++;
	errno = 0;
	unsigned long long bytes = *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : 0;
	if (*v < '0' || *v > '9' || errno == ERANGE || (*end && end[strspn(end, " \t")]))
		return bad_line(h, expected);
	size_t n = (size_t)(sep - h->line);
	while (n > 0 && (h->line[n - 1] == ' ' || h->line[n - 1] == '\t'))
		n--;
	if (n == 0)
		return bad_line(h, expected);
	int rc;
	if (!h->sample_begun && (rc = begin_census(h)))
		return rc;
	if (lk_array_grow(&h->key, &h->key_cap, KEY_PAD + n + 1, 1, 16))
		return -ENOMEM;
	memset(h->key, 0, KEY_PAD);
	memcpy(h->key + KEY_PAD, h->line, n);
	h->key[KEY_PAD + n] = 0;
	struct lk_band_key k;
	lk_band_key_make(&k, h->key + KEY_PAD, n, 0);
	size_t slot = 0;
	long i = lk_band_index_find(&h->bands, &k, &slot);
	if (i < 0)
		i = lk_band_index_add(&h->bands, &k, slot);
	if (i < 0)
		return (int)i;
	return lk_census_add(&h->census, (size_t)i, (double)bytes);
}

static int on_end(struct hp *h, const char *rest)
{
	double t;
	int rc = time_of(h, rest, "END_SAMPLE", &t);
	if (rc)
		return rc;
	h->in_sample = 0;
	if (h->sample_begun) {
		h->sample_begun = 0;
		return lk_census_end(&h->census);
	}
	/* before any census: GHC's sample where profiling begins, left out;
	 * after one, kept until a census follows (memory: EMPTY_MAX at most) */
	if (lk_census_count(&h->census) == 0)
		return 0;
	if (h->n_empty == EMPTY_MAX && (rc = empty_censuses(h)))
		return rc;
	if (lk_array_grow(&h->empty, &h->cap_empty, h->n_empty + 1, sizeof(double), 16))
		return -ENOMEM;
	h->empty[h->n_empty++] = h->sample_t;
	return 0;
}

static int sample_line(struct hp *h)
{
	const char *rest;
	if (keyword(h, "END_SAMPLE", &rest))
		return on_end(h, rest);
	if (keyword(h, "MARK", &rest))
		return on_mark(h, rest);
	if (keyword(h, "BEGIN_SAMPLE", &rest)) {
		char e[80];
		snprintf(e, sizeof(e), "END_SAMPLE of the sample of line %zu", h->sample_line);
		return bad_line(h, e);
	}
	return on_band(h);
}

static int line(struct hp *h)
{
	const char *rest;
	int done, rc;
	if (h->len == 0)
		return 0;
	if (h->in_sample)
		return sample_line(h);
	if (keyword(h, "BEGIN_SAMPLE", &rest)) {
		if ((rc = time_of(h, rest, "BEGIN_SAMPLE", &h->sample_t)))
			return rc;
		h->in_sample = 1;
		h->sample_line = h->lineno;
		return 0;
	}
	if (keyword(h, "MARK", &rest))
		return on_mark(h, rest);
	if ((rc = header_line(h, &done)) || done)
		return rc;
	return bad_line(h, "BEGIN_SAMPLE, MARK or a header line (DATE, SAMPLE_UNIT, VALUE_UNIT)");
}

/* The open sample, cut (why), is left out of the report, with a warning. */
static int drop_sample(struct hp *h, const char *why)
{
	if (!h->in_sample)
		return 0;
	lk_census_drop(&h->census);
	h->in_sample = h->sample_begun = 0;
	return lk_heap_timeline_warn(h->tl, "census at %.3f s is incomplete (%s): left out of "
				     "the report", h->sample_t, why);
}

/* ---- finishing -------------------------------------------------------- */

static int finish(struct hp *h)
{
	int rc = lk_heap_timeline_bands(h->tl, &h->census, &h->bands);
	return rc ? rc : lk_heap_timeline_finish(h->tl, &h->census, "no heap profile samples: "
						 "the program ended before its first census");
}

static void hp_release(struct hp *h)
{
	lk_census_release(&h->census);
	lk_band_index_release(&h->bands);
	free(h->line);
	free(h->key);
	free(h->empty);
}

/* ---- reading ------------------------------------------------------------ */

int lk_hp_sniff(FILE *f)
{
	int ch = getc(f);
	if (ch == EOF)
		return 0;
	ungetc(ch, f);
	return ch == LK_HP_FIRST_BYTE;
}

/* The first line: JOB "...", else this is no .hp file. */
static int first_line(struct hp *h)
{
	const char *rest;
	int rc = next_line(h);
	if (rc < 0)
		return rc;
	static const char expected[] = "JOB \"program\" (a .hp heap profile) or an eventlog's header";
	if (rc == 0)
		return lk_error_set(LK_EFORMAT, "line 1: expected %s", expected);
	if (!keyword(h, "JOB", &rest))
		return bad_line(h, expected);
	return on_job(h, rest);
}

/* Every line after the first: 0, or the code of the line that stopped
 * the reading (its detail set). The last line, without its "\n", that
 * is not of the format is where the file was cut: not an error. */
static int all_lines(struct hp *h)
{
	int rc;
	while ((rc = next_line(h)) > 0)
		if ((rc = line(h)) < 0)
			return rc == LK_EFORMAT && !h->ended ? 0 : rc;
	return rc;
}

int lk_hp_read(FILE *f, struct lk_timeline *tl, struct lk_profile_stats *st)
{
	struct lk_profile_stats local;
	struct hp h = {.f = f, .tl = tl};
	*tl = (struct lk_timeline){0};
	if (!st)
		st = &local;
	*st = (struct lk_profile_stats){0};
	int rc = first_line(&h);
	if (rc)
		goto fail;
	rc = all_lines(&h);
	st->events = h.lineno;
	off_t at = ftello(f);
	st->bytes = at > 0 ? (uint64_t)at : 0;
	if (rc == -ENOMEM)
		goto fail;
	if (rc < 0) {
		st->data_error = rc;
		if (lk_heap_timeline_warn(tl, "%s", lk_error_detail()))
			goto fail;
		char why[64];
		snprintf(why, sizeof(why), "line %zu cannot be read", h.lineno);
		if (drop_sample(&h, why))
			goto fail;
	} else if (drop_sample(&h, "the file ends before its end")) {
		goto fail;
	}
	if ((rc = finish(&h)))
		goto fail;
	hp_release(&h);
	if (st->data_error)  /* keep the detail for the caller's message */
		lk_error_set(st->data_error, "%s", tl->warnings[0]);
	return 0;
fail:
	hp_release(&h);
	lk_timeline_release(tl);
	return rc == -ENOMEM ? rc : rc ? rc : -ENOMEM;
}
