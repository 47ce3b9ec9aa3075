/* why_path.c - what keeps a group of blocks, for people (why_path.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/why_path.h"
#include "collector/session.h"
#include "collector/symbolize.h"
#include "collector/threadregs.h"

static const char *const reg_names[LK_GENERAL_REGS] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9",
	"r10", "r11", "r12", "r13", "r14", "r15", "fs_base", "gs_base"};

/* "the exiting thread" (the one stopped at the end) or "thread #N". */
static void thread_name(int t, char *buf, size_t n)
{
	if (t == 0)
		snprintf(buf, n, "the thread stopped at the end");
	else
		snprintf(buf, n, "thread #%d", t);
}

/* The function at a code address (a return address), or NULL. */
static char *function_at(const struct lk_session *s, struct lk_symbolizer *sym, uint64_t ip)
{
	const char *path;
	uint64_t bias;
	struct lk_frame_text f[8] = {{0}};
	if (!ip || lk_session_module(s, ip, &path, &bias) != 0)
		return NULL;
	int n = lk_symbolize(sym, path, bias, ip, f, 8);
	char *name = n > 0 && f[n - 1].function ? strdup(f[n - 1].function) : NULL;
	for (int i = 0; i < n; i++)
		lk_frame_text_release(&f[i]);
	return name;
}

static char *describe(const struct lk_session *s, struct lk_symbolizer *sym,
		      const struct lk_block_why *b);

static char *describe_root(const struct lk_session *s, struct lk_symbolizer *sym,
			   const struct lk_root_info *r, const struct lk_block_why *b)
{
	char buf[1024], who[64];
	const char *name = r->name ? r->name : "";
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char *fn = NULL;
	switch (r->kind) {
	case LK_ROOT_DATA:
		/* the symbol of a data address: symbolize it as the return
		 * address just after it */
		fn = function_at(s, sym, b->via.where + 1);
		if (fn)
			snprintf(buf, sizeof(buf), "a global of %s: %s", base, fn);
		else
			snprintf(buf, sizeof(buf), "a global of %s (at 0x%llx)", base,
				 (unsigned long long)b->via.where);
		break;
	case LK_ROOT_STACK:
		thread_name(r->thread, who, sizeof(who));
		fn = function_at(s, sym, b->code);
		snprintf(buf, sizeof(buf), "the stack of %s%s%s", who, fn ? ", in the frame of " : "",
			 fn ? fn : "");
		break;
	case LK_ROOT_GOROUTINE:
		snprintf(buf, sizeof(buf), "the stack of a live goroutine");
		break;
	case LK_ROOT_GOHEAP:
	case LK_ROOT_INHERITED: {
		char *by = NULL;
		if (b->beyond.via != LK_VIA_NONE) {
			struct lk_block_why up = {.via = b->beyond, .code = b->beyond_code};
			by = describe(s, sym, &up);
		}
		snprintf(buf, sizeof(buf), "%s (at 0x%llx)%s%s", r->kind == LK_ROOT_GOHEAP
			 ? "a live object of Go's heap" : "a block inherited from the parent process",
			 (unsigned long long)b->via.where, by ? ", kept by " : "", by ? by : "");
		free(by);
		break;
	}
	case LK_ROOT_GHC:
		snprintf(buf, sizeof(buf), "a live object of the GHC heap (at 0x%llx)",
			 (unsigned long long)b->via.where);
		break;
	case LK_ROOT_REGISTERED:
		snprintf(buf, sizeof(buf), "memory registered with leakscope_register_root() "
			 "(0x%llx-0x%llx)", (unsigned long long)r->lo, (unsigned long long)r->hi);
		break;
	default:
		snprintf(buf, sizeof(buf), "anonymous memory%s%s (0x%llx-0x%llx: not the malloc "
			 "heap - a program's own arena, or a garbage-collected heap)",
			 *name ? " " : "", name, (unsigned long long)r->lo,
			 (unsigned long long)r->hi);
	}
	free(fn);
	return strdup(buf);
}

static char *describe(const struct lk_session *s, struct lk_symbolizer *sym,
		      const struct lk_block_why *b)
{
	const struct lk_why *w = s->why;
	char buf[256], who[64];
	switch (b->via.via) {
	case LK_VIA_KEPT:
		return strdup("kept on purpose (leakscope_ignore, or allocated between "
			      "leakscope_disable and leakscope_enable)");
	case LK_VIA_VALUE:
		if (b->via.index < w->n_general_values) {
			thread_name((int)(b->via.index / LK_GENERAL_REGS), who, sizeof(who));
			snprintf(buf, sizeof(buf), "register %s of %s",
				 reg_names[b->via.index % LK_GENERAL_REGS], who);
			return strdup(buf);
		}
		return strdup("a vector register of a live thread");
	case LK_VIA_ROOT:
		if (b->via.index < w->n_roots)
			return describe_root(s, sym, &w->roots[b->via.index], b);
		break;
	}
	return strdup("nothing (it is lost)");
}

/* The first frame of the allocation stack of the block in slot. */
static int site_of(const struct lk_session *s, struct lk_symbolizer *sym, size_t slot,
		   struct lk_frame_text *out)
{
	uint64_t ips[LK_MAX_FRAMES];
	int depth = lk_session_stack(s, s->live.slots[slot].stack, ips);
	const char *path;
	uint64_t bias;
	memset(out, 0, sizeof(*out));
	if (depth <= 0 || lk_session_module(s, ips[0], &path, &bias) != 0)
		return 0;
	struct lk_frame_text f[8] = {{0}};
	int n = lk_symbolize(sym, path, bias, ips[0], f, 8);
	if (n <= 0)
		return 0;
	*out = f[0]; /* the innermost (an inlined callee, if any) */
	for (int i = 1; i < n; i++)
		lk_frame_text_release(&f[i]);
	return 0;
}

int lk_why_path_of(const struct lk_session *s, struct lk_symbolizer *sym, size_t slot,
		   struct lk_why_path **out)
{
	struct lk_why_path *p = calloc(1, sizeof(*p));
	size_t chain[LK_WHY_STEPS_MAX];
	size_t n = 0;
	if (!p)
		return -ENOMEM;
	for (size_t at = slot;;) { /* up through the blocks that hold it */
		chain[n++] = at;
		const struct lk_block_why *b = &s->why->blocks[at];
		if (b->via.via != LK_VIA_BLOCK || b->via.index >= s->live.cap)
			break;
		if (n == LK_WHY_STEPS_MAX) {
			p->cut = 1;
			break;
		}
		at = b->via.index;
	}
	p->root = p->cut ? strdup("(a longer chain)")
			 : describe(s, sym, &s->why->blocks[chain[n - 1]]);
	p->steps = calloc(n, sizeof(*p->steps));
	if (!p->root || !p->steps) {
		lk_why_path_free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) { /* the root's block first */
		size_t at = chain[n - 1 - i];
		p->steps[i].bytes = s->live.slots[at].size;
		site_of(s, sym, at, &p->steps[i].site);
	}
	p->n_steps = n;
	*out = p;
	return 0;
}

void lk_why_path_free(struct lk_why_path *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_steps; i++)
		lk_frame_text_release(&p->steps[i].site);
	free(p->steps);
	free(p->root);
	free(p);
}
