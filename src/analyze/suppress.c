/* suppress.c - suppression patterns and matching (see suppress.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suppress.h"
#include "common/error.h"

/* One-time allocations of language runtimes that are kept until exit on
 * purpose. Each names the innermost runtime function that owns the block.
 * docs/suppressions.md says why each is here. */
static const char *const builtin[] = {
	"^_IO_file_doallocate$",   /* stdio buffers */
	"^_dl_allocate_tls$",      /* thread-local storage of live threads */
	"^_dl_new_object$",        /* dynamic loader bookkeeping */
	"^_dl_map_object$",
	"^_dl_check_map_versions$",
	"^_dlerror_run$",
	"^__libc_dlopen_mode$",
	"^call_init$",           /* constructors of the C/C++ runtime libraries */
	"^__new_exitfn$",          /* atexit handler list */
	"^__add_to_environ$",      /* setenv */
	"^x_cgo_init$",            /* Go runtime, cgo start-up */
	"^_cgo_try_pthread_create$",
	"^x_cgo_thread_start$",
	"^stgMallocBytes$",        /* GHC runtime system */
	"^stgCallocBytes$",
	"^stgReallocBytes$",
	"^hs_init_ghc$",
	"^rts_mkString$",
	NULL,
};

void lk_suppressions_init(struct lk_suppressions *s)
{
	memset(s, 0, sizeof(*s));
}

void lk_suppressions_release(struct lk_suppressions *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->patterns[i]);
		free(s->sources[i]);
	}
	free(s->patterns);
	free(s->sources);
	memset(s, 0, sizeof(*s));
}

static int grow(struct lk_suppressions *s)
{
	size_t nc = s->cap ? s->cap * 2 : 32;
	char **p = realloc(s->patterns, nc * sizeof(*p));
	if (p)
		s->patterns = p;
	char **f = p ? realloc(s->sources, nc * sizeof(*f)) : NULL;
	if (!f)
		return -ENOMEM;
	s->sources = f;
	s->cap = nc;
	return 0;
}

int lk_suppressions_add(struct lk_suppressions *s, const char *pattern, const char *source)
{
	if (s->n == s->cap && grow(s) != 0)
		return -ENOMEM;
	char *src = source ? strdup(source) : NULL;
	if ((source && !src) || !(s->patterns[s->n] = strdup(pattern))) {
		free(src);
		return -ENOMEM;
	}
	s->sources[s->n++] = src;
	return 0;
}

int lk_suppressions_add_builtin(struct lk_suppressions *s)
{
	if (s->n != 0)
		return -EINVAL; /* built-ins come first */
	for (const char *const *p = builtin; *p; p++) {
		int rc = lk_suppressions_add(s, *p, NULL);
		if (rc)
			return rc;
	}
	s->n_builtin = s->n;
	return 0;
}

static char *trim(char *t)
{
	while (*t == ' ' || *t == '\t')
		t++;
	size_t n = strlen(t);
	while (n && (t[n - 1] == '\n' || t[n - 1] == '\r' || t[n - 1] == ' ' || t[n - 1] == '\t'))
		t[--n] = 0;
	return t;
}

/* The whole file in a buffer of LK_SUPPRESSIONS_MAX bytes (and a NUL):
 * a file that goes on past it (an endless pipe) is not read further. */
static int slurp(FILE *f, const char *name, char **out)
{
	char *b = malloc(LK_SUPPRESSIONS_MAX + 1);
	if (!b)
		return -ENOMEM;
	size_t n = 0, k = 1;
	while (n <= LK_SUPPRESSIONS_MAX && k > 0) {
		k = fread(b + n, 1, LK_SUPPRESSIONS_MAX + 1 - n, f);
		n += k;
	}
	const char *nul = n <= LK_SUPPRESSIONS_MAX ? memchr(b, 0, n) : NULL;
	int rc = 0;
	if (ferror(f))
		rc = -EIO;
	else if (n > LK_SUPPRESSIONS_MAX)
		rc = lk_error_set(LK_ELIMIT, "cannot read suppressions '%s': longer than %u MiB",
				  name, LK_SUPPRESSIONS_MAX >> 20);
	else if (nul)
		rc = lk_error_set(LK_EFORMAT, "cannot read suppressions '%s': a NUL byte at "
				  "offset %zu (not a text file)", name, (size_t)(nul - b));
	if (rc) {
		free(b);
		return rc;
	}
	b[n] = 0;
	*out = b;
	return 0;
}

int lk_suppressions_read(struct lk_suppressions *s, FILE *f, const char *name)
{
	char *text;
	int rc = slurp(f, name, &text), no = 0;
	if (rc)
		return rc;
	/* line by line: strsep keeps the empty lines, so that numbers match */
	for (char *rest = text, *line; !rc && (line = strsep(&rest, "\n")); ) {
		char *t = trim(line);
		no++;
		if (!*t || *t == '#')
			continue;
		if (strncmp(t, "leak:", 5) != 0 || !*trim(t + 5))
			rc = lk_error_set(LK_EFORMAT, "%s:%d: expected 'leak:PATTERN'", name, no);
		else
			rc = lk_suppressions_add(s, trim(t + 5), name);
	}
	free(text);
	return rc;
}

/* Glob with '*' only, anchored at both ends. */
static int glob(const char *p, size_t plen, const char *t)
{
	size_t tlen = strlen(t), pi = 0, ti = 0, star = (size_t)-1, mark = 0;
	while (ti < tlen) {
		if (pi < plen && p[pi] == '*') {
			star = pi++;
			mark = ti;
		} else if (pi < plen && p[pi] == t[ti]) {
			pi++;
			ti++;
		} else if (star != (size_t)-1) {
			pi = star + 1;
			ti = ++mark;
		} else {
			return 0;
		}
	}
	while (pi < plen && p[pi] == '*')
		pi++;
	return pi == plen;
}

int lk_pattern_match(const char *pattern, const char *text)
{
	if (!text)
		return 0;
	size_t n = strlen(pattern);
	int head = pattern[0] == '^', tail = n > (size_t)head && pattern[n - 1] == '$';
	const char *p = pattern + head;
	size_t plen = n - (size_t)head - (size_t)tail;
	char buf[1024];
	if (plen + 3 > sizeof(buf))
		return 0;
	/* unanchored ends behave as if '*' stood there */
	size_t k = 0;
	if (!head)
		buf[k++] = '*';
	memcpy(buf + k, p, plen);
	k += plen;
	if (!tail)
		buf[k++] = '*';
	return glob(buf, k, text);
}

/* Modules of the C and C++ runtimes: code there allocates on behalf of
 * whoever called it. */
int lk_suppress_system_module(const char *m)
{
	static const char *const prefixes[] = {"libc.so", "ld-linux", "libstdc++.so",
					       "libgcc_s.so", "libm.so", "libpthread.so", NULL};
	for (const char *const *p = prefixes; m && *p; p++)
		if (!strncmp(m, *p, strlen(*p)))
			return 1;
	return 0;
}

/* Built-in patterns name a runtime function that owns the block: they only
 * match while every frame inside it is runtime code too, so a program's
 * own allocation made under, say, dlopen() is never hidden by them. */
static int builtin_match(const char *pattern, const struct lk_frame_text *frames, size_t n)
{
	for (size_t f = 0; f < n; f++) {
		if (lk_pattern_match(pattern, frames[f].function))
			return 1;
		if (!lk_suppress_system_module(frames[f].module))
			return 0;
	}
	return 0;
}

const char *lk_suppressions_match(const struct lk_suppressions *s,
				  const struct lk_frame_text *frames, size_t n)
{
	for (size_t i = 0; i < s->n_builtin; i++)
		if (builtin_match(s->patterns[i], frames, n))
			return s->patterns[i];
	for (size_t i = s->n_builtin; i < s->n; i++)
		for (size_t f = 0; f < n; f++)
			if (lk_pattern_match(s->patterns[i], frames[f].function) ||
			    lk_pattern_match(s->patterns[i], frames[f].file) ||
			    lk_pattern_match(s->patterns[i], frames[f].module) ||
			    lk_pattern_match(s->patterns[i], frames[f].module_path))
				return s->patterns[i];
	return NULL;
}

const char *lk_suppressions_source(const struct lk_suppressions *s, const char *pattern)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->patterns[i] == pattern)
			return s->sources[i] ? s->sources[i] : "builtin";
	return "builtin";
}
