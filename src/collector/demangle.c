/*
 * demangle.c - mangled symbol names -> human names.
 *
 * C++ (Itanium ABI) and Rust go to libiberty: rust_demangle() first, since
 * legacy Rust names (_ZN...17h<hash>E) are valid C++ names too, then
 * cplus_demangle_v3(). The "::h<16 hex>" hash of legacy Rust names is
 * dropped, as rustfilt does.
 *
 * GHC names are z-encoded "<pkg>_<Module>_<name>_<suffix>" (the package is
 * left out for the main program). A name is treated as a GHC name only when
 * all of the following hold, so that C names such as my_func_info or
 * stg_ap_0_fast are left alone:
 *   - it ends in _info, _con_info, _closure, _entry, _con_entry, _slow,
 *     _fast or _srt;
 *   - what is left holds only [A-Za-z0-9_] and splits on '_' into two
 *     (Module, name) or three (package, Module, name) non-empty parts;
 *   - every part z-decodes without error;
 *   - the decoded module is a module name: dot-separated components, each
 *     starting with an upper-case letter and made of letters, digits, '_'
 *     and '\'';
 *   - the decoded package holds only letters, digits, '-', '.' and '_'.
 * The result is "pkg:Module.name" or "Module.name". A C symbol shaped like
 * Foo_bar_info still passes; no rule can tell it from a GHC name.
 *
 * Old GHCs wrote z<decimal>U; current ones write hex, which is what is
 * decoded here. Tuples above arity 64 (GHC's own limit) are refused.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "collector/demangle.h"

#define MAX_TUPLE 64

struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 32;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_putc(struct sbuf *b, char c)
{
	sb_put(b, &c, 1);
}

/* UTF-8 of code point cp; 0 if cp cannot be encoded. */
static int put_utf8(struct sbuf *b, uint32_t cp)
{
	char u[4];
	size_t n;

	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	sb_put(b, u, n);
	return 1;
}

static char upper_code(char c)
{
	switch (c) {
	case 'L': return '(';
	case 'R': return ')';
	case 'M': return '[';
	case 'N': return ']';
	case 'C': return ':';
	case 'Z': return 'Z';
	}
	return 0;
}

static char lower_code(char c)
{
	switch (c) {
	case 'z': return 'z';
	case 'a': return '&';
	case 'b': return '|';
	case 'c': return '^';
	case 'd': return '$';
	case 'e': return '=';
	case 'g': return '>';
	case 'h': return '#';
	case 'i': return '.';
	case 'l': return '<';
	case 'm': return '-';
	case 'n': return '!';
	case 'p': return '+';
	case 'q': return '\'';
	case 'r': return '\\';
	case 's': return '/';
	case 't': return '*';
	case 'u': return '_';
	case 'v': return '%';
	}
	return 0;
}

/* Decode s[0..n) into b; 0 on success, -1 on an invalid escape. */
static int zdecode(struct sbuf *b, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		char c = s[i];
		if (c != 'Z' && c != 'z') {
			sb_putc(b, c);
			i++;
			continue;
		}
		if (i + 1 >= n)
			return -1;
		char d = s[i + 1];
		if (c == 'Z' && isdigit((unsigned char)d)) {
			/* Z<arity>T tuple, Z<arity>H unboxed tuple */
			unsigned long ar = 0;
			size_t j = i + 1;
			while (j < n && isdigit((unsigned char)s[j])) {
				ar = ar * 10 + (unsigned long)(s[j] - '0');
				if (ar > MAX_TUPLE)
					return -1;
				j++;
			}
			if (j >= n || (s[j] != 'T' && s[j] != 'H'))
				return -1;
			int unboxed = s[j] == 'H';
			sb_put(b, unboxed ? "(#" : "(", unboxed ? 2 : 1);
			if (unboxed && ar <= 1)
				sb_putc(b, ' ');
			for (unsigned long k = 1; k < ar; k++)
				sb_putc(b, ',');
			sb_put(b, unboxed ? "#)" : ")", unboxed ? 2 : 1);
			i = j + 1;
		} else if (c == 'z' && isdigit((unsigned char)d)) {
			/* z<hex>U code point */
			uint32_t cp = 0;
			size_t j = i + 1;
			while (j < n && isxdigit((unsigned char)s[j])) {
				char h = s[j];
				cp = cp * 16 + (uint32_t)(isdigit((unsigned char)h) ? h - '0'
							   : tolower((unsigned char)h) - 'a' + 10);
				if (cp > 0x10ffff)
					return -1;
				j++;
			}
			if (j >= n || s[j] != 'U' || !put_utf8(b, cp))
				return -1;
			i = j + 1;
		} else {
			char out = c == 'Z' ? upper_code(d) : lower_code(d);
			if (!out)
				return -1;
			sb_putc(b, out);
			i += 2;
		}
	}
	return 0;
}

char *lk_zdecode(const char *s)
{
	struct sbuf b = {0};

	if (!s)
		return NULL;
	sb_put(&b, "", 0);
	if (zdecode(&b, s, strlen(s)) < 0 || b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

static int is_module(const char *m)
{
	int start = 1;

	if (!*m)
		return 0;
	for (; *m; m++) {
		if (start) {
			if (!isupper((unsigned char)*m))
				return 0;
			start = 0;
		} else if (*m == '.') {
			start = 1;
		} else if (!isalnum((unsigned char)*m) && *m != '_' && *m != '\'') {
			return 0;
		}
	}
	return !start;
}

static int is_package(const char *p)
{
	if (!*p)
		return 0;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.' && *p != '_')
			return 0;
	return 1;
}

/* Try body s[0..n) (suffix removed) as [pkg_]Module_name: "pkg:Module.name",
 * or "pkg:Module" alone when module_only. */
static char *ghc_body(const char *s, size_t n, int module_only)
{
	const char *part[3];
	size_t plen[3];
	int np = 0;
	size_t start = 0;
	char *dec[3] = {NULL, NULL, NULL};
	char *res = NULL;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '_') {
			if (!isalnum((unsigned char)s[i]))
				return NULL;
			continue;
		}
		if (i == start || np == 3)
			return NULL;
		part[np] = s + start;
		plen[np] = i - start;
		np++;
		start = i + 1;
	}
	if (np < 2)
		return NULL;
	for (int k = 0; k < np; k++) {
		struct sbuf b = {0};
		sb_put(&b, "", 0);
		if (zdecode(&b, part[k], plen[k]) < 0 || b.oom || !b.len) {
			free(b.p);
			goto out;
		}
		dec[k] = b.p;
	}
	const char *pkg = np == 3 ? dec[0] : NULL;
	const char *mod = dec[np - 2], *name = dec[np - 1];
	if (!is_module(mod) || (pkg && !is_package(pkg)))
		goto out;
	struct sbuf r = {0};
	if (pkg) {
		sb_put(&r, pkg, strlen(pkg));
		sb_putc(&r, ':');
	}
	sb_put(&r, mod, strlen(mod));
	if (!module_only) {
		sb_putc(&r, '.');
		sb_put(&r, name, strlen(name));
	}
	if (r.oom)
		free(r.p);
	else
		res = r.p;
out:
	for (int k = 0; k < 3; k++)
		free(dec[k]);
	return res;
}

static char *ghc_demangle(const char *sym, int module_only)
{
	static const char *const suffixes[] = {
		"_con_info", "_con_entry", "_info", "_closure", "_entry",
		"_slow", "_fast", "_srt",
	};
	size_t n = strlen(sym);

	for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++) {
		size_t sl = strlen(suffixes[k]);
		if (n <= sl || strcmp(sym + n - sl, suffixes[k]) != 0)
			continue;
		char *r = ghc_body(sym, n - sl, module_only);
		if (r)
			return r;
	}
	return NULL;
}

/* Drop a trailing "::h<16 hex>" (legacy Rust hash) in place. */
static void drop_rust_hash(char *s)
{
	size_t n = strlen(s);

	if (n < 19 || memcmp(s + n - 19, "::h", 3) != 0)
		return;
	for (size_t i = n - 16; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return;
	s[n - 19] = '\0';
}

char *lk_demangle(const char *sym)
{
	if (!sym || !*sym)
		return NULL;
	if (sym[0] == '_' && (sym[1] == 'Z' || sym[1] == 'R')) {
		char *r = rust_demangle(sym, DMGL_PARAMS | DMGL_ANSI);
		if (!r && sym[1] == 'Z')
			r = cplus_demangle_v3(sym, DMGL_PARAMS | DMGL_ANSI);
		if (r) {
			drop_rust_hash(r);
			return r;
		}
		return NULL;
	}
	return ghc_demangle(sym, 0);
}

char *lk_demangle_ghc_module(const char *sym)
{
	return sym ? ghc_demangle(sym, 1) : NULL;
}
