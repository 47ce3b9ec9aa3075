/*
 * history_massif.c - `leakscope report --format massif`: the live bytes of
 * a trace over its window as a valgrind massif file (massif.out), read by
 * ms_print and massif-visualizer.
 *
 * A snapshot per sample of the window's timelines (at most 256), their
 * heap size the sum of the sites' live bytes then; every 10th is detailed
 * (the allocation tree), and one more, marked peak, at the time of the
 * peak with each site's bytes live then. The tree is massif's: under the
 * root, the allocating frames, then their callers; subtrees under 1% of
 * the snapshot are summed into one "in N places" line, as massif does.
 * Timelines are kept as floats: values above 2^24 bytes are rounded to
 * about 7 digits.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/trace/history_report.h"

#define DETAILED_EVERY 10
#define THRESHOLD_PERCENT 1.0

/* A site that holds memory at some snapshot: its timeline and its frames
 * as massif's node texts, allocating frame first. */
struct msite {
	const struct lk_hist_site *s;
	double *values;           /* per snapshot of the timeline */
	char **labels;
	size_t n_labels;
};

struct massif {
	const struct lk_history *h;
	FILE *out;
	struct msite *sites;
	size_t n_sites;
	const double *now;        /* the values of the snapshot being written, by site */
};

/* "0xADDR: function (file:line)" for each frame of each address, inlined
 * frames first, as massif writes them. */
static int make_labels(const struct lk_history *h, struct msite *m)
{
	const struct lk_hist_site *s = m->s;
	const uint64_t *addrs = lk_history_site_addrs(s);
	if (!addrs && s->n_addrs)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_addrs; i++) {
		struct lk_frame_text *f;
		size_t n;
		int rc = lk_symtab_resolve(&h->symtab, &addrs[i], 1, &f, &n);
		if (rc)
			return rc;
		char **v = realloc(m->labels, (m->n_labels + n) * sizeof(*v));
		if (!v) {
			free(f);
			return -ENOMEM;
		}
		m->labels = v;
		for (size_t k = 0; k < n && !rc; k++) {
			char *text;
			int len = f[k].function
				? asprintf(&text, "0x%" PRIX64 ": %s (%s:%d)", addrs[i], f[k].function,
					   f[k].file ? f[k].file : "?", f[k].line)
				: asprintf(&text, "0x%" PRIX64 ": ??? (in %s+0x%" PRIx64 ")", addrs[i],
					   f[k].module ? f[k].module : "?", f[k].offset);
			if (len < 0)
				rc = -ENOMEM;
			else
				m->labels[m->n_labels++] = text;
		}
		free(f);
		if (rc)
			return rc;
	}
	return 0;
}

static int load_sites(struct massif *m)
{
	const struct lk_history *h = m->h;
	m->sites = calloc(h->n_sites ? h->n_sites : 1, sizeof(*m->sites));
	if (!m->sites)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_sites; i++) {
		struct msite *ms = &m->sites[m->n_sites];
		ms->s = &h->sites[i];
		if (!(ms->values = lk_history_site_values(h, i)))
			return -ENOMEM;
		int used = ms->s->peak_bytes > 0;
		for (size_t j = 0; j < h->sampler.due && !used; j++)
			used = ms->values[j] > 0;
		if (!used) {
			free(ms->values);
			continue;
		}
		m->n_sites++;
		int rc = make_labels(h, ms);
		if (rc)
			return rc;
	}
	return 0;
}

static const char *label_at(const struct msite *s, size_t depth)
{
	return depth < s->n_labels ? s->labels[depth] : "";
}

static int by_label(const void *pa, const void *pb, void *arg)
{
	const struct msite *a = *(struct msite *const *)pa, *b = *(struct msite *const *)pb;
	size_t depth = *(const size_t *)arg;
	return strcmp(label_at(a, depth), label_at(b, depth));
}

struct group {
	size_t start, end;        /* a run of the sorted sites */
	uint64_t bytes;
};

static int by_bytes(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;
	return a->bytes != b->bytes ? (a->bytes > b->bytes ? -1 : 1) : (a->start > b->start);
}

static uint64_t value_of(const struct massif *m, const struct msite *s)
{
	double v = m->now[s - m->sites];
	return v > 0 ? (uint64_t)llround(v) : 0;
}

/* Write the node of sites[0..n) (all sharing the frames above depth) with
 * text and bytes, then its children: the groups of the frame at depth. */
static int node(struct massif *m, struct msite **sites, size_t n, size_t depth, const char *text,
		uint64_t bytes, uint64_t total)
{
	qsort_r(sites, n, sizeof(*sites), by_label, &depth);
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	size_t n_groups = 0, small = 0;
	uint64_t small_bytes = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t sum = 0;
		for (; j < n && strcmp(label_at(sites[j], depth), label_at(sites[i], depth)) == 0; j++)
			sum += value_of(m, sites[j]);
		if (depth < sites[i]->n_labels && sum > 0) {
			if ((double)sum * 100.0 >= THRESHOLD_PERCENT * (double)total)
				g[n_groups++] = (struct group){i, j, sum};
			else
				small++, small_bytes += sum;
		}
		i = j;
	}
	qsort(g, n_groups, sizeof(*g), by_bytes);
	fprintf(m->out, "%*sn%zu: %" PRIu64 " %s\n", (int)depth, "", n_groups + (small > 0), bytes, text);
	int rc = 0;
	for (size_t k = 0; k < n_groups && !rc; k++)
		rc = node(m, sites + g[k].start, g[k].end - g[k].start, depth + 1,
			  label_at(sites[g[k].start], depth), g[k].bytes, total);
	if (small)
		fprintf(m->out, "%*sn0: %" PRIu64 " in %zu place%s, all below massif's threshold (%.2f%%)\n",
			(int)depth + 1, "", small_bytes, small, small == 1 ? "" : "s", THRESHOLD_PERCENT);
	free(g);
	return rc;
}

/* One snapshot; values by site (m->sites order). */
static int snapshot(struct massif *m, size_t number, double seconds, const double *values,
		    const char *tree)
{
	uint64_t total = 0;
	m->now = values;
	for (size_t i = 0; i < m->n_sites; i++)
		total += value_of(m, &m->sites[i]);
	fprintf(m->out, "#-----------\nsnapshot=%zu\n#-----------\ntime=%.0f\nmem_heap_B=%" PRIu64
		"\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n", number, seconds * 1000, total,
		tree);
	if (strcmp(tree, "empty") == 0)
		return 0;
	struct msite **all = malloc((m->n_sites ? m->n_sites : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_sites; i++)
		all[i] = &m->sites[i];
	int rc = node(m, all, m->n_sites, 0,
		      "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.", total, total);
	free(all);
	return rc;
}

static int snapshots(struct massif *m)
{
	const struct lk_history *h = m->h;
	size_t due = h->sampler.due, number = 0;
	double *now = malloc((m->n_sites ? m->n_sites : 1) * sizeof(*now));
	double peak_s = lk_history_seconds(h, h->peak_t);
	int peak_done = h->peak_bytes == 0, rc = 0;
	if (!now)
		return -ENOMEM;
	for (size_t j = 0; j <= due && !rc; j++) {
		if (!peak_done && (j == due || h->times[j] > peak_s)) {
			for (size_t i = 0; i < m->n_sites; i++)
				now[i] = (double)m->sites[i].s->peak_bytes;
			rc = snapshot(m, number++, peak_s, now, "peak");
			peak_done = 1;
		}
		if (j == due || rc)
			break;
		for (size_t i = 0; i < m->n_sites; i++)
			now[i] = m->sites[i].values[j];
		rc = snapshot(m, number++, h->times[j], now, j % DETAILED_EVERY ? "empty" : "detailed");
	}
	free(now);
	return rc;
}

int lk_history_write_massif(const struct lk_history *h, FILE *out)
{
	struct massif m = {.h = h, .out = out};
	int rc = load_sites(&m);
	if (!rc) {
		fprintf(out, "desc: leakscope report --format massif\ncmd: %s\ntime_unit: ms\n",
			h->program ? h->program : "");
		rc = snapshots(&m);
	}
	for (size_t i = 0; i < m.n_sites; i++) {
		free(m.sites[i].values);
		for (size_t k = 0; k < m.sites[i].n_labels; k++)
			free(m.sites[i].labels[k]);
		free(m.sites[i].labels);
	}
	free(m.sites);
	return rc ? rc : ferror(out) ? -EIO : 0;
}
