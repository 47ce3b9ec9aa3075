/* verdicts.c - a trace's leaks, as `run` reports them (verdicts.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "history/verdicts.h"

_Static_assert((int)LK_TRACE_DEFINITE == (int)LK_CLASS_DEFINITE &&
	       (int)LK_TRACE_INDIRECT == (int)LK_CLASS_INDIRECT &&
	       (int)LK_TRACE_POSSIBLE == (int)LK_CLASS_POSSIBLE &&
	       (int)LK_TRACE_REACHABLE == (int)LK_CLASS_REACHABLE &&
	       (int)LK_TRACE_NOT_FREED == (int)LK_CLASS_NOT_FREED,
	       "a trace's verdicts are leak classes");

/* A live block of the window with its verdict; held: it is indirectly
 * lost, and its leader's site is suppressed. */
struct judged {
	uint32_t site;
	uint8_t cls, held;
	uint64_t size;
};

static int by_group(const void *a, const void *b)
{
	const struct judged *x = a, *y = b;
	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return (x->held > y->held) - (x->held < y->held);
}

int lk_history_verdicts_apply(const struct lk_history *h)
{
	return h->opt.to.kind == LK_POINT_END;
}

/* The verdict of block `number`: the trace's, or LK_TRACE_NOT_FREED. */
static const struct lk_trace_block_verdict *verdict_of(const struct lk_hist_verdicts *v,
						       uint64_t number)
{
	size_t lo = 0, hi = v->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->v[mid].number < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->n && v->v[lo].number == number ? &v->v[lo] : NULL;
}

static char *copy(const char *s, int *failed)
{
	char *c = s ? strdup(s) : NULL;
	*failed |= s && !c;
	return c;
}

static void release_frames(struct lk_leak *l)
{
	for (size_t i = 0; i < l->n_frames; i++)
		lk_frame_text_release(&l->frames[i]);
	free(l->frames);
	l->frames = NULL;
	l->n_frames = 0;
}

/* The frames of a site, the report's own copies. */
static int site_frames(const struct lk_history *h, uint32_t site, struct lk_leak *l)
{
	const struct lk_hist_site *s = &h->sites[site];
	int rc = lk_history_symbolize(h, s), failed = 0;
	size_t n = s->n_frames;
	if (rc)
		return rc;
	l->frames = calloc(n + 1, sizeof(*l->frames));
	if (!l->frames)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct lk_frame_text *f = &s->frames[i];
		l->frames[i] = (struct lk_frame_text){
			.function = copy(f->function, &failed), .file = copy(f->file, &failed),
			.line = f->line, .module = copy(f->module, &failed),
			.module_path = copy(f->module_path, &failed), .offset = f->offset,
			.inlined = f->inlined};
	}
	if (n == 0)
		l->frames[n++].module = copy("(stack not recorded)", &failed);
	l->n_frames = n;
	if (!failed)
		return 0;
	release_frames(l);
	return -ENOMEM;
}

/* Whether the site of a definitely lost block is suppressed (cached). */
static int leader_suppressed(const struct lk_history *h, const struct lk_suppressions *sup,
			     uint32_t leader, int8_t *cache)
{
	if (!sup || !leader)
		return 0;
	if (!cache[leader]) {
		struct lk_leak l = {0};
		cache[leader] = site_frames(h, leader, &l) == 0 &&
				lk_suppressions_match(sup, l.frames, l.n_frames) ? 1 : -1;
		release_frames(&l);
	}
	return cache[leader] > 0;
}

/* The live blocks of the window, judged, by group: a new array of *n. */
static struct judged *judge(const struct lk_history *h, const struct lk_suppressions *sup,
			    int8_t *cache, size_t *n)
{
	struct judged *j = malloc((lk_hblocks_count(&h->blocks) + 1) * sizeof(*j));
	*n = 0;
	if (!j)
		return NULL;
	lk_hblocks_foreach(&h->blocks, b) {
		if (b.number < h->from_number || b.site == LK_HBLOCK_NO_SITE)
			continue;
		const struct lk_trace_block_verdict *v = verdict_of(&h->verdicts, b.number);
		struct judged x = {.site = b.site, .cls = LK_TRACE_NOT_FREED, .size = b.size};
		if (v && v->cls == LK_TRACE_IGNORED)   /* kept on purpose: never listed */
			continue;
		if (v) {
			x.cls = v->cls;
			x.held = v->leader < h->n_sites && leader_suppressed(h, sup, v->leader, cache);
		}
		j[(*n)++] = x;
	}
	qsort(j, *n, sizeof(*j), by_group);
	return j;
}

/* The groups of j[0 .. n) (by group) into out. */
static int add_groups(const struct lk_history *h, const struct lk_suppressions *sup,
		      int show_reachable, const struct judged *j, size_t n,
		      struct lk_leak_report *out)
{
	int rc = 0;
	for (size_t i = 0; i < n && !rc;) {
		struct lk_leak l = {.cls = j[i].cls, .stack = j[i].site};
		int held = j[i].held;
		for (; i < n && j[i].site == l.stack && j[i].cls == l.cls && j[i].held == held; i++) {
			l.bytes += j[i].size;
			l.objects++;
		}
		struct lk_leak *listed;
		if ((rc = site_frames(h, l.stack, &l)) == 0)
			rc = lk_leak_report_add(out, &l, sup, held, show_reachable, &listed);
	}
	return rc;
}

int lk_history_leaks(const struct lk_history *h, const struct lk_suppressions *sup,
		     int show_reachable, struct lk_leak_report *out)
{
	memset(out, 0, sizeof(*out));
	out->pid = (pid_t)h->meta.pid;
	out->root = 1;
	out->command = strdup(h->program);
	out->stats.allocations = h->allocs;
	out->stats.frees = h->frees;
	out->stats.bytes_allocated = h->bytes_allocated;
	out->stats.peak_bytes = h->peak_bytes;
	out->scanned = h->verdicts.scanned;
	out->scan_note = h->verdicts.known ? h->verdicts.note
		: "the trace holds no verdicts of a scan: its recording did not end "
		  "(leakscope was killed?), or an older leakscope made it";
	out->heap_note = h->verdicts.heap_note;
	if (!out->command)
		return -ENOMEM;
	size_t n;
	int8_t *cache = calloc(h->n_sites + 1, 1);
	struct judged *j = cache ? judge(h, sup, cache, &n) : NULL;
	int rc = j ? add_groups(h, sup, show_reachable, j, n, out) : -ENOMEM;
	free(j);
	free(cache);
	lk_leak_report_sort(out);
	return rc;
}
