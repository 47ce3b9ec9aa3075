/*
 * band_match.c - pair the bands of two timelines (band_match.h).
 *
 * Bands without an IPE entry pair by id. Bands with one (the timelines have
 * the -hi detail columns and the band a module) pair in rounds, each over
 * the bands still unpaired, on a key that drops a little more:
 *   1. description, closure type, type, module, source location
 *   2. closure type, type, module, source location (GHC's generated names,
 *      sat_s1lp_info or Entry_Main_1_con_info, change with the source)
 *   3. closure type, type, module, source file (the lines moved)
 * A key groups bands of both sides; a group pairs only when it holds as
 * many bands on each side, then in order of source position (line,
 * column), which an edit elsewhere in the file keeps. A group of unequal
 * sides stays unpaired: removed and added, rather than a wrong pair.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/band_match.h"

enum { DESC, CTYPE, TYPE, MODULE, LOC, N_FIELDS };

static const char *const ipe_columns[N_FIELDS] = {
	"description", "closure type", "type", "module", "source location",
};

/* Where each IPE column is in tl's details; 0 when tl lacks one. */
static int ipe_layout(const struct lk_timeline *tl, size_t col[N_FIELDS])
{
	for (int f = 0; f < N_FIELDS; f++) {
		size_t c = 0;
		while (c < tl->n_detail_columns && strcmp(tl->detail_columns[c], ipe_columns[f]))
			c++;
		if (c == tl->n_detail_columns)
			return 0;
		col[f] = c;
	}
	return 1;
}

struct entry {
	char *key;
	int side;            /* 0 before, 1 after */
	size_t band;
	long line, column;   /* source position, 0 when none */
	const char *desc;
};

static const char *field(const struct lk_band *b, const size_t *col, int f)
{
	const char *s = b->details ? b->details[col[f]] : NULL;
	return s ? s : "";
}

/* "File.hs:24:23-32" or "File.hs:(24,5)-(26,10)": line and column. */
static void source_position(const char *loc, long *line, long *column)
{
	const char *p = strchr(loc, ':');
	*line = *column = 0;
	if (p && sscanf(p + 1, "(%ld,%ld", line, column) != 2 &&
	    sscanf(p + 1, "%ld:%ld", line, column) < 1)
		*line = *column = 0;
}

/* The key of round r (1..3) for band b. */
static char *round_key(const struct lk_band *b, const size_t *col, int r)
{
	const char *loc = field(b, col, LOC);
	const char *colon = strchr(loc, ':');
	int file_len = r == 3 && colon ? (int)(colon - loc) : (int)strlen(loc);
	char *k = NULL;
	if (asprintf(&k, "%s\x1f%s\x1f%s\x1f%s\x1f%.*s", r == 1 ? field(b, col, DESC) : "",
		     field(b, col, CTYPE), field(b, col, TYPE), field(b, col, MODULE), file_len,
		     loc) < 0)
		return NULL;
	return k;
}

static int by_key_side_position(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);
	if (c)
		return c;
	if (a->side != b->side)
		return a->side - b->side;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return strcmp(a->desc, b->desc);
}

/* Pair the groups of e[0..n) (sorted) that hold as many on each side. */
static void pair_groups(const struct entry *e, size_t n, long *match)
{
	for (size_t i = 0; i < n;) {
		size_t j = i, mid;
		while (j < n && strcmp(e[j].key, e[i].key) == 0)
			j++;
		for (mid = i; mid < j && e[mid].side == 0; mid++)
			;
		if (mid - i == j - mid)
			for (size_t k = 0; k < mid - i; k++)
				match[e[i + k].band] = (long)e[mid + k].band;
		i = j;
	}
}

static int has_ipe(const struct lk_band *b, const size_t *col)
{
	return b->details && b->details[col[MODULE]];
}

/* One round over the IPE bands still unpaired. */
static int ipe_round(const struct lk_timeline *before, const size_t *cb,
		     const struct lk_timeline *after, const size_t *ca, long *match,
		     const char *used, int r)
{
	size_t n = 0;
	struct entry *e = calloc(before->n_bands + after->n_bands + 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	int rc = 0;
	for (int side = 0; side < 2 && rc == 0; side++) {
		const struct lk_timeline *tl = side ? after : before;
		const size_t *col = side ? ca : cb;
		for (size_t i = 0; i < tl->n_bands; i++) {
			const struct lk_band *b = &tl->bands[i];
			if (!has_ipe(b, col) || (side ? used[i] : match[i] >= 0))
				continue;
			struct entry *x = &e[n];
			if (!(x->key = round_key(b, col, r))) {
				rc = -ENOMEM;
				break;
			}
			x->side = side;
			x->band = i;
			x->desc = field(b, col, DESC);
			source_position(field(b, col, LOC), &x->line, &x->column);
			n++;
		}
	}
	if (rc == 0) {
		qsort(e, n, sizeof(*e), by_key_side_position);
		pair_groups(e, n, match);
	}
	for (size_t i = 0; i < n; i++)
		free(e[i].key);
	free(e);
	return rc;
}

static int by_id(const void *pa, const void *pb)
{
	const struct lk_band *a = *(const struct lk_band *const *)pa;
	const struct lk_band *b = *(const struct lk_band *const *)pb;
	return strcmp(a->id, b->id);
}

int lk_band_match(const struct lk_timeline *before, const struct lk_timeline *after,
		  long *match)
{
	size_t cb[N_FIELDS], ca[N_FIELDS], na = after->n_bands;
	int ipe = ipe_layout(before, cb) && ipe_layout(after, ca);
	const struct lk_band **idx = malloc((na ? na : 1) * sizeof(*idx));
	char *used = calloc(na ? na : 1, 1);
	int rc = idx && used ? 0 : -ENOMEM;
	for (size_t i = 0; i < before->n_bands; i++)
		match[i] = -1;
	for (size_t i = 0; rc == 0 && i < na; i++)
		idx[i] = &after->bands[i];
	if (rc == 0 && na)
		qsort(idx, na, sizeof(*idx), by_id);
	for (size_t i = 0; rc == 0 && na && i < before->n_bands; i++) {
		const struct lk_band *key = &before->bands[i];
		if (ipe && has_ipe(key, cb))
			continue;
		const struct lk_band **hit = bsearch(&key, idx, na, sizeof(*idx), by_id);
		size_t j = hit ? (size_t)(*hit - after->bands) : 0;
		if (hit && !(ipe && has_ipe(*hit, ca))) {
			match[i] = (long)j;
			used[j] = 1;
		}
	}
	for (int r = 1; rc == 0 && ipe && r <= 3; r++) {
		rc = ipe_round(before, cb, after, ca, match, used, r);
		for (size_t i = 0; i < before->n_bands; i++)
			if (match[i] >= 0)
				used[match[i]] = 1;
	}
	free(idx);
	free(used);
	return rc;
}
