/* leaks.c - group a finished process's live blocks into leaks (leaks.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/leaks.h"

#define INLINE_MAX 8

struct group {
	uint64_t bytes, objects;
	size_t first;              /* live slot of its first block */
};

static const char *const class_text[] = {"definitely lost", "indirectly lost", "possibly lost",
					 "still reachable", "not freed at exit"};
static const char *const class_id[] = {"definitely-lost", "indirectly-lost", "possibly-lost",
				       "still-reachable", "not-freed"};

const char *lk_leak_class_text(int cls)
{
	return cls >= 0 && cls < LK_CLASS_COUNT ? class_text[cls] : "?";
}

const char *lk_leak_class_id(int cls)
{
	return cls >= 0 && cls < LK_CLASS_COUNT ? class_id[cls] : "?";
}

uint64_t lk_leak_report_lost(const struct lk_leak_report *r)
{
	if (r->incomplete)
		return 0;
	return r->class_objects[LK_CLASS_DEFINITE] + r->class_objects[LK_CLASS_INDIRECT] +
	       r->class_objects[LK_CLASS_NOT_FREED];
}

static int by_bytes(const void *a, const void *b)
{
	const struct lk_leak *x = a, *y = b;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	if (x->objects != y->objects)
		return x->objects < y->objects ? 1 : -1;
	return (x->stack > y->stack) - (x->stack < y->stack);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The one frame of a group of blocks allocated before leakscope looked
 * (collector/session.h, attach_sizes): what and how large they are. */
static int attach_frame(const struct lk_session *s, uint32_t stack, struct lk_leak *out)
{
	char module[64];
	uint32_t k = stack - LK_ATTACH_STACK;
	uint64_t size = k < s->n_attach_sizes ? s->attach_sizes[k] : 0;
	snprintf(module, sizeof(module), "blocks of %" PRIu64 " bytes", size);
	out->frames = calloc(1, sizeof(*out->frames));
	if (!out->frames)
		return -ENOMEM;
	out->frames[0].function = strdup(LK_ATTACH_FRAME);
	out->frames[0].module = strdup(module);
	out->n_frames = 1;
	return 0;
}

/* Frames of one stack, inlined ones expanded; unknown modules keep the
 * raw address as offset. */
static int symbolize_stack(const struct lk_session *s, struct lk_symbolizer *sym,
			   uint32_t stack, struct lk_leak *out, int *damaged)
{
	if (stack >= LK_ATTACH_STACK)
		return attach_frame(s, stack, out);
	uint64_t ips[LK_MAX_FRAMES];
	int got = lk_session_stack(s, stack, ips);
	uint32_t depth = got > 0 ? (uint32_t)got : 0;
	if (got < 0)
		*damaged = 1;
	out->frames = calloc((size_t)depth * INLINE_MAX + 1, sizeof(*out->frames));
	if (!out->frames)
		return -ENOMEM;
	size_t n = 0;
	for (uint32_t i = 0; i < depth; i++) {
		const char *path;
		uint64_t bias;
		int k = -1;
		if (lk_session_module(s, ips[i], &path, &bias) == 0) {
			k = lk_symbolize(sym, path, bias, ips[i], out->frames + n, INLINE_MAX);
			if (k < 0) {
				out->frames[n].module = strdup(base_name(path));
				out->frames[n].module_path = strdup(path);
				out->frames[n].offset = ips[i] - bias;
				k = 1;
			}
		} else {
			out->frames[n].module = strdup("?");
			out->frames[n].offset = ips[i];
			k = 1;
		}
		/* A continuation found past the end of CFI in the same function
		 * as the frame before it (GHC code) adds nothing: fold it. */
		if (k == 1 && n > 0 && !out->frames[n].file && !out->frames[n - 1].file &&
		    out->frames[n].function && out->frames[n - 1].function &&
		    !strcmp(out->frames[n].function, out->frames[n - 1].function)) {
			lk_frame_text_release(&out->frames[n]);
			k = 0;
		}
		n += (size_t)k;
	}
	if (depth == 0)
		out->frames[n++].module = strdup("(stack not recorded)");
	out->n_frames = n;
	return 0;
}

static void release_frames(struct lk_leak *l)
{
	for (size_t f = 0; f < l->n_frames; f++)
		lk_frame_text_release(&l->frames[f]);
	free(l->frames);
	l->frames = NULL;
	l->n_frames = 0;
	lk_why_path_free(l->why);
	l->why = NULL;
}

static int push(struct lk_leak **arr, size_t *n, const struct lk_leak *l)
{
	struct lk_leak *a = realloc(*arr, (*n + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	a[(*n)++] = *l;
	*arr = a;
	return 0;
}

/* Groups are (stack, class) pairs, and one more "class": indirectly lost
 * blocks whose leader is suppressed are suppressed with it, as
 * LeakSanitizer does (it ignores suppressed leaks and checks again). */
#define GROUP_CLASSES (LK_CLASS_COUNT + 1)
#define INDIRECT_OF_SUPPRESSED LK_CLASS_COUNT

struct sup_cache {
	const char **pattern;      /* per group index: its suppression, or NULL */
	uint8_t *known;
};

/* Stack ids as dense group indexes: the region's ids (below n_region; a
 * larger one is taken for 0, none), then the groups of blocks from before
 * an attach (LK_ATTACH_STACK + k). */
struct ids {
	uint32_t n_region, n;
};

static uint32_t group_of(const struct ids *ids, uint32_t stack)
{
	if (stack >= LK_ATTACH_STACK)
		return stack - LK_ATTACH_STACK < ids->n - ids->n_region
		       ? ids->n_region + (stack - LK_ATTACH_STACK) : 0;
	return stack < ids->n_region ? stack : 0;
}

static uint32_t stack_of(const struct ids *ids, uint32_t group)
{
	return group < ids->n_region ? group : LK_ATTACH_STACK + (group - ids->n_region);
}

/* The suppression that matches stack id, or NULL (cached). */
static const char *stack_suppression(const struct lk_session *s, struct lk_symbolizer *sym,
				     const struct lk_suppressions *sup, struct sup_cache *sc,
				     const struct ids *ids, uint32_t id)
{
	if (!sc->known[id]) {
		struct lk_leak l = {0};
		int damaged = 0;
		if (symbolize_stack(s, sym, stack_of(ids, id), &l, &damaged) == 0)
			sc->pattern[id] = lk_suppressions_match(sup, l.frames, l.n_frames);
		release_frames(&l);
		sc->known[id] = 1;
	}
	return sc->pattern[id];
}

/* The group class of a live block: its class, or INDIRECT_OF_SUPPRESSED. */
static int group_class(const struct lk_session *s, struct lk_symbolizer *sym,
		       const struct lk_suppressions *sup, struct sup_cache *sc,
		       const struct ids *ids, const struct lk_block *b)
{
	size_t slot = (size_t)(b - s->live.slots);
	int cls = s->classes ? s->classes[slot] : LK_CLASS_NOT_FREED;
	if (cls != LK_CLASS_INDIRECT || !sup || !sc->known || !s->leaders)
		return cls;
	uint32_t lead = s->leaders[slot];
	if (lead >= s->live.cap || !s->live.slots[lead].addr)
		return cls;
	uint32_t id = group_of(ids, s->live.slots[lead].stack);
	return stack_suppression(s, sym, sup, sc, ids, id) ? INDIRECT_OF_SUPPRESSED : cls;
}

/* What the report must say about how the blocks were classed, or NULL.
 * Without ptrace, the first sentence of each note says why: not permitted
 * here, or another tracer had the process. */
const char *lk_leaks_scan_note(const struct lk_session *s)
{
	static const char *const notes[2][3] = {
		{"ptrace is not permitted here: the process was scanned from its exit hook "
		 "(exit, _exit); raw exit paths (exit_group, a crash) could not be scanned",
		 "no reachability scan: ptrace is not permitted here, and the scan from the "
		 "exit hook failed",
		 "no reachability scan: ptrace is not permitted here, and the process ended "
		 "by a raw exit path (exit_group, as Go's os.Exit, or a fatal signal) that "
		 "could not be scanned from inside"},
		{"another tracer (a debugger, strace) had the process: it was scanned from its "
		 "exit hook (exit, _exit); raw exit paths (exit_group, a crash) could not be "
		 "scanned",
		 "no reachability scan: another tracer (a debugger, strace) had the process, "
		 "and the scan from the exit hook failed",
		 "no reachability scan: another tracer (a debugger, strace) had the process, "
		 "and it ended by a raw exit path (exit_group, as Go's os.Exit, or a fatal "
		 "signal) that could not be scanned from inside"},
	};
	const char *const *why = notes[s->handover == LK_RELEASE_TRACER || s->traced_elsewhere];
	if (!s->scan_wanted)
		return NULL;
	if (s->exit_called && s->classes)
		return why[0];
	if (s->classes && s->unclassified)
		return "blocks that overlapped others (frees leakscope did not see, or events the "
		       "program made up) were not classified: they are listed as not freed";
	if (s->classes)
		return NULL;
	if (s->exit_called)
		return why[1];
	if (s->exit_call)
		return why[2];
	return "no reachability scan: the process ended without an exit stop (killed by SIGKILL?)";
}

int lk_leak_report_add(struct lk_leak_report *out, struct lk_leak *l,
		       const struct lk_suppressions *sup, int held_by_suppressed, int show_reachable,
		       struct lk_leak **listed)
{
	int rc = 0;
	*listed = NULL;
	l->suppression = sup ? lk_suppressions_match(sup, l->frames, l->n_frames) : NULL;
	l->suppression_source = l->suppression ? lk_suppressions_source(sup, l->suppression) : NULL;
	if (!l->suppression && held_by_suppressed)
		l->suppression = "(held only by a suppressed leak)";
	if (!l->suppression) {
		out->class_bytes[l->cls] += l->bytes;
		out->class_objects[l->cls] += l->objects;
	}
	if (!l->suppression && l->cls == LK_CLASS_REACHABLE && !show_reachable) {
		release_frames(l);
	} else if (l->suppression) {
		out->suppressed_bytes += l->bytes;
		out->suppressed_objects += l->objects;
		if ((rc = push(&out->suppressed, &out->n_suppressed, l)) == 0)
			*listed = &out->suppressed[out->n_suppressed - 1];
	} else {
		if (l->cls != LK_CLASS_REACHABLE) {
			out->leaked_bytes += l->bytes;
			out->leaked_objects += l->objects;
		}
		if ((rc = push(&out->leaks, &out->n_leaks, l)) == 0)
			*listed = &out->leaks[out->n_leaks - 1];
	}
	if (rc)
		release_frames(l);
	return rc;
}

void lk_leak_report_sort(struct lk_leak_report *r)
{
	if (r->n_leaks)
		qsort(r->leaks, r->n_leaks, sizeof(*r->leaks), by_bytes);
	if (r->n_suppressed)
		qsort(r->suppressed, r->n_suppressed, sizeof(*r->suppressed), by_bytes);
}

int lk_leaks_collect(const struct lk_session *s, struct lk_symbolizer *sym,
		     const struct lk_suppressions *sup, int root, int show_reachable, int why,
		     struct lk_leak_report *out)
{
	memset(out, 0, sizeof(*out));
	out->pid = s->pid;
	out->ppid = s->ppid;
	out->root = root;
	out->forked = s->forked;
	out->command = strdup(s->cmdline ? s->cmdline : s->comm);
	out->exe = s->exe ? strdup(s->exe) : NULL;
	out->has_status = s->has_status;
	out->status = s->wait_status;
	out->stats = s->stats;
	out->marks = s->marks;
	out->n_marks = s->n_marks;
	out->marks_dropped = s->marks_dropped + s->marks_bad + s->marks_lost;
	out->region_note = lk_session_note(s);
	out->incomplete = out->region_note != NULL;

	/* stack ids of live blocks were checked when their events were, and
	 * are below stack_end; id 0 (none) is a group too */
	struct ids ids = {.n_region = s->view.stack_end > 0 ? s->view.stack_end : 1};
	ids.n = ids.n_region + s->n_attach_sizes;
	uint32_t n_stacks = ids.n;
	int damaged = 0;
	out->scanned = s->classes != NULL;
	out->scan_note = lk_leaks_scan_note(s);
	out->heap_note = s->classes ? s->go_note : NULL;
	if (s->own_malloc)
		out->alloc_note = "the program's executable defines its own malloc, which comes "
				  "before leakscope's interposer: its allocations cannot be seen, "
				  "so nothing here says whether it leaks";
	/* one group per (stack, class) */
	struct group *g = calloc(((size_t)n_stacks + 1) * GROUP_CLASSES, sizeof(*g));
	struct sup_cache sc = {calloc((size_t)n_stacks + 1, sizeof(*sc.pattern)),
			       calloc((size_t)n_stacks + 1, 1)};
	if (!g || !sc.pattern || !sc.known) {
		free(g);
		free(sc.pattern);
		free(sc.known);
		return -ENOMEM;
	}
	lk_live_foreach(&s->live, b) {
		uint32_t id = group_of(&ids, b->stack);
		if (b->seq & LK_BLOCK_IGNORED) /* kept on purpose: never listed */
			continue;
		int cls = group_class(s, sym, sup, &sc, &ids, b);
		struct group *x = &g[(size_t)id * GROUP_CLASSES + (size_t)cls];
		if (!x->objects)
			x->first = (size_t)(b - s->live.slots);
		x->bytes += b->size;
		x->objects++;
	}
	int rc = 0;
	for (size_t k = 0; k < (size_t)n_stacks * GROUP_CLASSES && !rc; k++) {
		if (!g[k].objects)
			continue;
		uint32_t id = stack_of(&ids, (uint32_t)(k / GROUP_CLASSES));
		int via_leader = k % GROUP_CLASSES == INDIRECT_OF_SUPPRESSED;
		struct lk_leak l = {.bytes = g[k].bytes, .objects = g[k].objects, .stack = id,
				    .cls = via_leader ? LK_CLASS_INDIRECT : (int)(k % GROUP_CLASSES)};
		struct lk_leak *listed = NULL;
		if ((rc = symbolize_stack(s, sym, id, &l, &damaged)) != 0 ||
		    (rc = lk_leak_report_add(out, &l, sup, via_leader, show_reachable, &listed)))
			break;
		if (why && s->why && listed && !listed->suppression &&
		    (l.cls == LK_CLASS_REACHABLE || l.cls == LK_CLASS_POSSIBLE))
			rc = lk_why_path_of(s, sym, g[k].first, &listed->why);
	}
	free(g);
	free(sc.pattern);
	free(sc.known);
	if (damaged && !out->region_note)
		out->region_note = "the program overwrote leakscope's shared memory (a stack "
				   "entry): stacks it overwrote are not shown";
	lk_leak_report_sort(out);
	return rc;
}

static void release_list(struct lk_leak *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		release_frames(&l[i]);
	free(l);
}

void lk_leak_report_release(struct lk_leak_report *r)
{
	release_list(r->leaks, r->n_leaks);
	release_list(r->suppressed, r->n_suppressed);
	free(r->command);
	free(r->exe);
	memset(r, 0, sizeof(*r));
}
