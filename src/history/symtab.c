/* symtab.c - frame addresses to text, from a trace's own records (see symtab.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "history/symtab.h"

static size_t slot_of(size_t cap, uint64_t addr)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 24) & (cap - 1);
}

int lk_symtab_init(struct lk_symtab *t)
{
	memset(t, 0, sizeof(*t));
	t->cap = 256;
	t->slots = calloc(t->cap, sizeof(*t->slots));
	return t->slots ? 0 : -ENOMEM;
}

static void free_frames(struct lk_frame_text *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].function);
		free(f[i].file);
		free(f[i].module);
	}
	free(f);
}

void lk_symtab_release(struct lk_symtab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].addr)
			free_frames(t->slots[i].frames, t->slots[i].n);
	free(t->slots);
	for (size_t i = 0; i < t->n_modules; i++) {
		free(t->modules[i].name);
		free(t->modules[i].ranges);
	}
	free(t->modules);
	memset(t, 0, sizeof(*t));
}

static struct lk_symtab_entry *find(const struct lk_symtab *t, uint64_t addr)
{
	for (size_t i = slot_of(t->cap, addr);; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].addr == addr || !t->slots[i].addr)
			return &t->slots[i];
	}
}

static int grow(struct lk_symtab *t)
{
	struct lk_symtab n = *t;
	n.cap = t->cap * 2;
	n.slots = calloc(n.cap, sizeof(*n.slots));
	if (!n.slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].addr)
			*find(&n, t->slots[i].addr) = t->slots[i];
	free(t->slots);
	*t = n;
	return 0;
}

static int dup_str(char **dst, const char *s)
{
	*dst = NULL;
	if (s && !(*dst = strdup(s)))
		return -ENOMEM;
	return 0;
}

static int copy_frames(const struct lk_frame_text *in, size_t n, struct lk_frame_text **out)
{
	struct lk_frame_text *f = calloc(n ? n : 1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		f[i].line = in[i].line;
		f[i].offset = in[i].offset;
		f[i].inlined = in[i].inlined;
		if (dup_str(&f[i].function, in[i].function) || dup_str(&f[i].file, in[i].file) ||
		    dup_str(&f[i].module, in[i].module)) {
			free_frames(f, i + 1);
			return -ENOMEM;
		}
	}
	*out = f;
	return 0;
}

int lk_symtab_add_symbol(struct lk_symtab *t, uint64_t addr,
			 const struct lk_frame_text *frames, size_t n)
{
	if (!addr || !n)
		return 0;
	if ((t->count + 1) * 2 > t->cap && grow(t))
		return -ENOMEM;
	struct lk_frame_text *copy;
	int rc = copy_frames(frames, n, &copy);
	if (rc)
		return rc;
	struct lk_symtab_entry *e = find(t, addr);
	if (e->addr) {
		free_frames(e->frames, e->n);
	} else {
		e->addr = addr;
		t->count++;
	}
	e->frames = copy;
	e->n = n;
	return 0;
}

int lk_symtab_add_module(struct lk_symtab *t, const struct lk_trace_module *m)
{
	struct lk_symtab_module *v = realloc(t->modules, (t->n_modules + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->modules = v;
	struct lk_symtab_module *mod = &v[t->n_modules];
	const char *base = m->path ? strrchr(m->path, '/') : NULL;
	memset(mod, 0, sizeof(*mod));
	mod->load_bias = m->load_bias;
	if (dup_str(&mod->name, base ? base + 1 : m->path ? m->path : "?"))
		return -ENOMEM;
	mod->ranges = calloc(m->n_ranges ? m->n_ranges : 1, sizeof(*mod->ranges));
	if (!mod->ranges) {
		free(mod->name);
		return -ENOMEM;
	}
	memcpy(mod->ranges, m->ranges, m->n_ranges * sizeof(*mod->ranges));
	mod->n_ranges = m->n_ranges;
	t->n_modules++;
	return 0;
}

const struct lk_symtab_module *lk_symtab_module_of(const struct lk_symtab *t, uint64_t addr)
{
	for (size_t i = t->n_modules; i-- > 0;)
		for (size_t r = 0; r < t->modules[i].n_ranges; r++)
			if (addr >= t->modules[i].ranges[r].start && addr < t->modules[i].ranges[r].end)
				return &t->modules[i];
	return NULL;
}

int lk_symtab_resolve(const struct lk_symtab *t, const uint64_t *addrs, size_t n,
		      struct lk_frame_text **out, size_t *n_out)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lk_symtab_entry *e = find(t, addrs[i]);
		total += e->addr ? e->n : 1;
	}
	struct lk_frame_text *f = calloc(total ? total : 1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lk_symtab_entry *e = find(t, addrs[i]);
		if (e->addr) {
			memcpy(f + k, e->frames, e->n * sizeof(*f));
			k += e->n;
			continue;
		}
		const struct lk_symtab_module *m = lk_symtab_module_of(t, addrs[i]);
		f[k].module = m ? m->name : NULL;
		f[k].offset = m ? addrs[i] - m->load_bias : addrs[i];
		k++;
	}
	*out = f;
	*n_out = k;
	return 0;
}
