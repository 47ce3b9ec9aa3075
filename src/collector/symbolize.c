/*
 * symbolize.c - return addresses -> function, file:line, inlined frames.
 *
 * One Dwfl per ELF file, reported at its own ELF vaddrs (base 0); an address
 * is looked up as vaddr = ip - bias. So a library mapped at different places
 * (several processes, several runs) is opened and indexed once, and results
 * are cached per (file, vaddr), which is what (path, bias, ip) determines.
 * Separate debug files come from dwfl_standard_find_debuginfo: build-id under
 * /usr/lib/debug/.build-id/, then .gnu_debuglink in the file's directory,
 * its .debug/ and /usr/lib/debug/<directory>. LEAKSCOPE_DEBUGINFO_PATH, in
 * elfutils' --debuginfo-path syntax (e.g. "-:.debug:/usr/lib/debug:/opt/dbg"),
 * replaces that search path: absolute directories are searched by build-id
 * (DIR/.build-id/xx/rest.debug) and by debuglink.
 *
 * GHC's units (ghc -g) are looked up by ghcdwarf.c, as their subprograms
 * do not cover their own code.
 *
 * Inlined frames follow eu-addr2line -i: the innermost scope containing the
 * call instruction, then its physical parents (dwarf_getscopes_die). Each
 * DW_TAG_inlined_subroutine gives one frame whose position is the line table
 * row (innermost) or the call site of the inline below it (DW_AT_call_file,
 * DW_AT_call_line); the DW_TAG_subprogram ends the chain. Without DWARF the
 * name comes from the ELF symbol table (.symtab, else .dynsym): libdwfl picks
 * the symbol containing the address or, failing that, the nearest preceding
 * zero-size symbol of the same section (GHC and Go code).
 *
 * The compile unit of an address comes from a table built once per module
 * from every unit's own ranges (DW_AT_low_pc/high_pc/ranges): libdwfl's
 * lookup goes by .debug_aranges and takes the nearest unit below an address
 * without checking that it reaches it, so code of units missing from
 * .debug_aranges (Go's, in a cgo binary) landed in some C unit. The line is
 * the last row of that unit's table at or before the address, only if it is
 * no sequence end and lies in the same range of the unit; otherwise the
 * frame has no file:line rather than a wrong one.
 *
 * A file that cannot be read is remembered and fails the same way each time.
 * (With DEBUGINFOD_URLS set, libdwfl may also ask a debuginfod server.)
 * Never prints; failures come back as negative codes with lk_error_set().
 */
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/regfile.h"
#include "collector/demangle.h"
#include "collector/ghcdwarf.h"
#include "collector/symbolize.h"

/* One frame as cached: module and offset are added when copied out. */
struct cframe {
	char *function;
	char *file;
	int line;
	int inlined;
};

/* A compile unit with code: its DIE (ranges, line table) and the DIE whose
 * children are searched for scopes (the split unit of a skeleton, else die). */
struct cu_info {
	Dwarf_Die die;
	Dwarf_Die scope;
};

/* One address range [lo, hi) of unit cu, in DWARF addresses. */
struct cu_range {
	Dwarf_Addr lo, hi;
	Dwarf_Addr maxhi;      /* greatest hi of this and all earlier ranges */
	size_t cu;             /* index into module.cus */
};

/* A symbol of the module's table: [lo, hi), hi == lo when it has no size. */
struct sym {
	Dwarf_Addr lo, hi;
	const char *name;      /* owned by the module's Dwfl */
};

struct module {
	struct module *next;   /* hash chain */
	char *path;
	const char *name;      /* basename, points into path */
	Dwfl *dwfl;            /* NULL if the file could not be read */
	Dwfl_Module *mod;
	int err;               /* why the file could not be read */
	bool cus_built;        /* cus and ranges are filled (maybe empty) */
	Dwarf_Addr dwbias;     /* module address - DWARF address */
	struct cu_info *cus;
	struct cu_range *ranges; /* sorted by lo */
	size_t n_cus, n_ranges;
	bool syms_built;       /* syms is filled (maybe empty) */
	struct sym *syms;      /* the symbol table, sorted by address */
	size_t n_syms;
};

struct result {
	struct result *next;   /* hash chain */
	const struct module *mod;
	uint64_t vaddr;
	int n;
	struct cframe *frames;
};

struct lk_symbolizer {
	struct module **mods;
	size_t n_mods, cap_mods;  /* cap is a power of two */
	struct result **res;
	size_t n_res, cap_res;
	struct module *last;      /* most recent module: stacks repeat modules */
};

static char *debuginfo_path; /* NULL: libdwfl's default, "-:.debug:/usr/lib/debug" */

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static uint64_t hash_addr(const struct module *m, uint64_t v)
{
	uint64_t h = (v ^ ((uint64_t)(uintptr_t)m >> 4)) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

int lk_symbolizer_new(struct lk_symbolizer **out)
{
	struct lk_symbolizer *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	if (getenv("LEAKSCOPE_DEBUGINFO_PATH"))
		debuginfo_path = getenv("LEAKSCOPE_DEBUGINFO_PATH");
	s->cap_mods = 16;
	s->cap_res = 1024;
	s->mods = calloc(s->cap_mods, sizeof(*s->mods));
	s->res = calloc(s->cap_res, sizeof(*s->res));
	if (!s->mods || !s->res) {
		lk_symbolizer_free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

static void result_free(struct result *r)
{
	for (int i = 0; i < r->n; i++) {
		free(r->frames[i].function);
		free(r->frames[i].file);
	}
	free(r->frames);
	free(r);
}

static void module_free(struct module *m)
{
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m->cus);
	free(m->ranges);
	free(m->syms);
	free(m->path);
	free(m);
}

void lk_symbolizer_free(struct lk_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->res && i < s->cap_res; i++)
		for (struct result *r = s->res[i], *nx; r; r = nx) {
			nx = r->next;
			result_free(r);
		}
	for (size_t i = 0; s->mods && i < s->cap_mods; i++)
		for (struct module *m = s->mods[i], *nx; m; m = nx) {
			nx = m->next;
			module_free(m);
		}
	free(s->res);
	free(s->mods);
	free(s);
}

void lk_frame_text_release(struct lk_frame_text *f)
{
	if (!f)
		return;
	free(f->function);
	free(f->file);
	free(f->module);
	free(f->module_path);
	f->function = f->file = f->module = f->module_path = NULL;
}

/* Open path as one offline module at base 0; m->err tells if it failed. */
static int module_open(struct module *m)
{
	/* a regular file only: the path is the traced program's word */
	int fd = lk_regfile_open(m->path);
	if (fd < 0)
		return fd;
	m->dwfl = dwfl_begin(&callbacks);
	if (!m->dwfl) {
		close(fd);
		return -ENOMEM;
	}
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_elf(m->dwfl, m->name, m->path, fd, 0, false);
	dwfl_report_end(m->dwfl, NULL, NULL);
	if (!m->mod)
		close(fd);      /* else libdwfl owns it */
	if (!m->mod) {
		dwfl_end(m->dwfl);
		m->dwfl = NULL;
		return LK_EFORMAT;
	}
	return 0;
}

static int mods_grow(struct lk_symbolizer *s)
{
	size_t cap = s->cap_mods * 2;
	struct module **t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap_mods; i++)
		for (struct module *m = s->mods[i], *nx; m; m = nx) {
			nx = m->next;
			size_t b = hash_str(m->path) & (cap - 1);
			m->next = t[b];
			t[b] = m;
		}
	free(s->mods);
	s->mods = t;
	s->cap_mods = cap;
	return 0;
}

/* The cached module for path, opened on first use; NULL on ENOMEM. */
static struct module *module_get(struct lk_symbolizer *s, const char *path)
{
	if (s->last && strcmp(s->last->path, path) == 0)
		return s->last;
	size_t b = hash_str(path) & (s->cap_mods - 1);
	for (struct module *m = s->mods[b]; m; m = m->next)
		if (strcmp(m->path, path) == 0)
			return s->last = m;

	if (s->n_mods >= s->cap_mods && mods_grow(s) < 0)
		return NULL;
	struct module *m = calloc(1, sizeof(*m));
	if (!m || !(m->path = strdup(path))) {
		free(m);
		return NULL;
	}
	const char *slash = strrchr(m->path, '/');
	m->name = slash ? slash + 1 : m->path;
	m->err = module_open(m);
	if (m->err == -ENOMEM) {
		module_free(m);
		return NULL;
	}
	b = hash_str(path) & (s->cap_mods - 1);
	m->next = s->mods[b];
	s->mods[b] = m;
	s->n_mods++;
	return s->last = m;
}

/* Growing array of cached frames while one address is resolved. */
struct fvec {
	struct cframe *f;
	int n, cap;
	int oom;
};

/* The name shown for symbol or DWARF name raw: demangled or copied. */
static char *human_name(const char *raw)
{
	char *n;

	if (!raw)
		return NULL;
	n = lk_demangle(raw);
	return n ? n : strdup(raw);
}

/* Append a frame; takes ownership of function (NULL: unknown, or ENOMEM
 * when failed is set). */
static void fvec_push(struct fvec *v, char *function, int failed, const char *file, int line,
		      int inlined)
{
	if (failed)
		v->oom = 1;
	if (v->oom) {
		free(function);
		return;
	}
	if (v->n == v->cap) {
		int cap = v->cap ? v->cap * 2 : 4;
		struct cframe *f = realloc(v->f, (size_t)cap * sizeof(*f));
		if (!f) {
			free(function);
			v->oom = 1;
			return;
		}
		v->f = f;
		v->cap = cap;
	}
	struct cframe *c = &v->f[v->n++];
	c->function = function;
	c->file = file ? strdup(file) : NULL;
	c->line = line;
	c->inlined = inlined;
	if (file && !c->file)
		v->oom = 1;
}

/* The name of a function DIE, following DW_AT_abstract_origin and
 * DW_AT_specification: the linkage name when it demangles (qualified C++ and
 * Rust names), else DW_AT_name (C: glibc's linkage names are asm labels
 * such as __GI___libc_malloc), else the linkage name as it is. */
static char *die_name(Dwarf_Die *die, int *failed)
{
	Dwarf_Attribute at;
	const char *link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
	if (!link)
		link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
	char *n = link ? lk_demangle(link) : NULL;
	if (n)
		return n;
	const char *plain = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &at));
	if (!plain)
		plain = link;
	n = plain ? strdup(plain) : NULL;
	*failed = plain && !n;
	return n;
}

/* Where the inlined subroutine die was called from. */
static void call_site(Dwarf_Die *die, const char **file, int *line)
{
	Dwarf_Attribute at;
	Dwarf_Word val;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &at), &val) == 0
	    && dwarf_diecu(die, &cu, NULL, NULL) != NULL
	    && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 && val < nfiles)
		*file = dwarf_filesrc(files, val, NULL, NULL);
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &at), &val) == 0)
		*line = (int)val;
}

static int sym_cmp(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->hi < b->hi) - (a->hi > b->hi); /* the larger first */
}

/* The module's functions and objects, sorted once: libdwfl looks each
 * address up by walking the whole table (1.6 ms an address in a program
 * of 29,000 symbols without DWARF, most of a report's time). */
static void syms_build(struct module *m)
{
	m->syms_built = true;
	int n = dwfl_module_getsymtab(m->mod);
	if (n <= 0 || !(m->syms = malloc((size_t)n * sizeof(*m->syms))))
		return;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(m->mod, i, &sym, &addr, NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE &&
		     type != STT_GNU_IFUNC))
			continue;
		m->syms[m->n_syms++] = (struct sym){addr, addr + sym.st_size, name};
	}
	qsort(m->syms, m->n_syms, sizeof(*m->syms), sym_cmp);
}

/* GHC code follows the symbol of its info table, which an older code
 * generator leaves without a size (and the RTS's Cmm code, stg_*). */
static bool ghc_code_symbol(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && !strcmp(name + n - 5, "_info")) ||
	       (n > 6 && !strcmp(name + n - 6, "_entry")) || !strncmp(name, "stg_", 4);
}

/* The symbol whose range holds a, else the nearest sizeless one before a
 * with no sized symbol ending between them - if it is a itself or GHC
 * code's, for a sizeless symbol names no address past it (crtstuff's
 * frame_dummy is followed by code without symbols); NULL if none. */
static const char *elf_symbol(struct module *m, Dwarf_Addr a)
{
	if (!m->syms_built)
		syms_build(m);
	size_t lo = 0, hi = m->n_syms;
	while (lo < hi) { /* the first symbol above a */
		size_t mid = lo + (hi - lo) / 2;
		if (m->syms[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	Dwarf_Addr sized_end = 0; /* the end of the sized symbols before a */
	const struct sym *sizeless = NULL;
	for (size_t i = lo, steps = 0; i-- > 0 && steps < 64; steps++) {
		const struct sym *s = &m->syms[i];
		if (s->hi > a)
			return s->name; /* holds a */
		if (s->hi > s->lo && s->hi > sized_end)
			sized_end = s->hi;
		if (s->hi == s->lo && !sizeless)
			sizeless = s;
	}
	if (!sizeless || sizeless->lo < sized_end)
		return NULL;
	return sizeless->lo == a || ghc_code_symbol(sizeless->name) ? sizeless->name : NULL;
}

static int range_cmp(const void *x, const void *y)
{
	const struct cu_range *a = x, *b = y;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	return a->cu < b->cu ? -1 : a->cu > b->cu;
}

/* Fill m->cus and m->ranges from every unit of the module's DWARF (none
 * without DWARF). 0 or -ENOMEM (then nothing is kept, to retry later). */
static int cu_table_build(struct module *m)
{
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(m->mod, &bias);
	struct cu_info *cus = NULL;
	struct cu_range *rs = NULL;
	size_t ncu = 0, capcu = 0, nr = 0, capr = 0;
	Dwarf_CU *unit = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t type;

	while (dw && dwarf_get_units(dw, unit, &unit, NULL, &type, &cudie, &subdie) == 0) {
		if (type == DW_UT_type || type == DW_UT_split_type)
			continue;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		size_t first = nr;
		while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0) {
			if (lo >= hi)
				continue;
			if (nr == capr) {
				capr = capr ? capr * 2 : 256;
				struct cu_range *t = realloc(rs, capr * sizeof(*t));
				if (!t)
					goto oom;
				rs = t;
			}
			rs[nr++] = (struct cu_range){.lo = lo, .hi = hi, .cu = ncu};
		}
		if (nr == first)
			continue; /* no code */
		if (ncu == capcu) {
			capcu = capcu ? capcu * 2 : 64;
			struct cu_info *t = realloc(cus, capcu * sizeof(*t));
			if (!t)
				goto oom;
			cus = t;
		}
		cus[ncu].die = cudie;
		cus[ncu].scope = type == DW_UT_skeleton && subdie.cu ? subdie : cudie;
		ncu++;
	}
	if (nr)
		qsort(rs, nr, sizeof(*rs), range_cmp);
	/* join touching or overlapping ranges of one unit, then the running max */
	size_t k = 0;
	for (size_t i = 0; i < nr; i++) {
		if (k && rs[k - 1].cu == rs[i].cu && rs[i].lo <= rs[k - 1].hi) {
			if (rs[i].hi > rs[k - 1].hi)
				rs[k - 1].hi = rs[i].hi;
			continue;
		}
		rs[k++] = rs[i];
	}
	for (size_t i = 0; i < k; i++)
		rs[i].maxhi = i && rs[i - 1].maxhi > rs[i].hi ? rs[i - 1].maxhi : rs[i].hi;
	m->dwbias = bias;
	m->cus = cus;
	m->n_cus = ncu;
	m->ranges = rs;
	m->n_ranges = k;
	m->cus_built = true;
	return 0;
oom:
	free(cus);
	free(rs);
	return -ENOMEM;
}

/* The unit whose ranges contain DWARF address a (the one whose range starts
 * last, should several), and in *lo the start of that range; or NULL. */
static struct cu_info *cu_find(const struct module *m, Dwarf_Addr a, Dwarf_Addr *lo)
{
	size_t l = 0, u = m->n_ranges;
	while (l < u) { /* l = how many ranges start at or below a */
		size_t mid = l + (u - l) / 2;
		if (m->ranges[mid].lo <= a)
			l = mid + 1;
		else
			u = mid;
	}
	for (size_t i = l; i-- > 0;) {
		const struct cu_range *r = &m->ranges[i];
		if (r->maxhi <= a)
			break;
		if (a < r->hi) {
			*lo = r->lo;
			return &m->cus[r->cu];
		}
	}
	return NULL;
}

/* The row of cu's line table that covers DWARF address a, which lies in the
 * unit's range starting at lo: the last row at or before a (as
 * dwfl_module_getsrc picks among rows of one address), provided it is no
 * sequence end and not before lo, i.e. not the tail of an unrelated
 * sequence. NULL if there is none. */
static Dwarf_Line *line_at(Dwarf_Die *cu, Dwarf_Addr lo, Dwarf_Addr a)
{
	Dwarf_Lines *lines;
	size_t n, l = 0, u;
	Dwarf_Addr la;
	bool end;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return NULL;
	u = n;
	while (l < u) { /* l = how many rows lie at or below a */
		size_t mid = l + (u - l) / 2;
		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &la) != 0)
			return NULL;
		if (la <= a)
			l = mid + 1;
		else
			u = mid;
	}
	if (l == 0)
		return NULL;
	Dwarf_Line *ln = dwarf_onesrcline(lines, l - 1);
	if (!ln || dwarf_lineaddr(ln, &la) != 0 || dwarf_lineendsequence(ln, &end) != 0
	    || end || la < lo)
		return NULL;
	return ln;
}

/* Resolve vaddr v of module m into v->f (innermost first). */
static void resolve(struct module *m, uint64_t vaddr, struct fvec *v)
{
	Dwarf_Addr a = vaddr ? vaddr - 1 : 0; /* the call instruction */
	const char *file = NULL;
	int line = 0;
	bool done = false;

	if (!m->cus_built && cu_table_build(m) < 0) {
		v->oom = 1;
		return;
	}
	Dwarf_Addr da = a - m->dwbias, lo = 0; /* modulo 2^64, as libdwfl */
	struct cu_info *cu = cu_find(m, da, &lo);
	Dwarf_Line *ln = cu ? line_at(&cu->die, lo, da) : NULL;
	if (ln) {
		file = dwarf_linesrc(ln, NULL, NULL);
		if (!file || dwarf_lineno(ln, &line) != 0) {
			file = NULL;
			line = 0;
		}
	}

	if (cu && lk_ghcdwarf_unit(&cu->die)) { /* GHC: no inlines, blocks apart */
		int failed = 0;
		char *name = lk_ghcdwarf_name(&cu->scope, da, &failed);
		if (name || failed) {
			fvec_push(v, name, failed, file, line, 0);
			return;
		}
	}
	Dwarf_Die *scopes = NULL;
	int ns = cu ? dwarf_getscopes(&cu->scope, da, &scopes) : 0;
	if (ns > 0) {
		Dwarf_Die inner = scopes[0];
		free(scopes);
		scopes = NULL;
		ns = dwarf_getscopes_die(&inner, &scopes);
	}
	for (int i = 0; i < ns && !done; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram
		    && tag != DW_TAG_entry_point)
			continue;
		int failed = 0;
		char *name = die_name(&scopes[i], &failed);
		if (tag == DW_TAG_inlined_subroutine) {
			fvec_push(v, name, failed, file, line, 1);
			call_site(&scopes[i], &file, &line);
		} else {
			if (!name && !failed) {
				const char *sym = elf_symbol(m, a);
				name = human_name(sym);
				failed = sym && !name;
			}
			fvec_push(v, name, failed, file, line, 0);
			done = true;
		}
	}
	free(scopes);
	if (!done) { /* no DWARF for ip, or an inline chain without its function */
		const char *sym = elf_symbol(m, a);
		char *name = human_name(sym);
		fvec_push(v, name, sym && !name, file, line, 0);
	}
}

static int res_grow(struct lk_symbolizer *s)
{
	size_t cap = s->cap_res * 2;
	struct result **t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap_res; i++)
		for (struct result *r = s->res[i], *nx; r; r = nx) {
			nx = r->next;
			size_t b = hash_addr(r->mod, r->vaddr) & (cap - 1);
			r->next = t[b];
			t[b] = r;
		}
	free(s->res);
	s->res = t;
	s->cap_res = cap;
	return 0;
}

static struct result *result_get(struct lk_symbolizer *s, struct module *m, uint64_t vaddr)
{
	size_t b = hash_addr(m, vaddr) & (s->cap_res - 1);
	for (struct result *r = s->res[b]; r; r = r->next)
		if (r->mod == m && r->vaddr == vaddr)
			return r;

	if (s->n_res >= s->cap_res && res_grow(s) < 0)
		return NULL;
	struct fvec v = {0};
	resolve(m, vaddr, &v);
	struct result *r = v.oom ? NULL : calloc(1, sizeof(*r));
	if (!r) {
		for (int i = 0; i < v.n; i++) {
			free(v.f[i].function);
			free(v.f[i].file);
		}
		free(v.f);
		return NULL;
	}
	r->mod = m;
	r->vaddr = vaddr;
	r->n = v.n;
	r->frames = v.f;
	b = hash_addr(m, vaddr) & (s->cap_res - 1);
	r->next = s->res[b];
	s->res[b] = r;
	s->n_res++;
	return r;
}

int lk_symbolizer_warm(struct lk_symbolizer *s, const char *path)
{
	struct module *m = s && path ? module_get(s, path) : NULL;
	if (!m)
		return -ENOMEM;
	if (m->err < 0)
		return m->err;
	if (!m->cus_built && cu_table_build(m) < 0)
		return -ENOMEM;
	if (!m->syms_built)
		syms_build(m);
	return 0;
}

int lk_symbolize(struct lk_symbolizer *s, const char *path, uint64_t bias, uint64_t ip,
		 struct lk_frame_text *frames, int max)
{
	if (!s || !path || !frames || max < 1 || ip < bias)
		return -EINVAL;
	struct module *m = module_get(s, path);
	if (!m)
		return -ENOMEM;
	if (m->err < 0)
		return lk_error_set(m->err, "cannot read '%s'", path);

	uint64_t vaddr = ip - bias;
	struct result *r = result_get(s, m, vaddr);
	if (!r)
		return -ENOMEM;

	int k = r->n < max ? r->n : max;
	int first = r->n - k; /* too long: drop the innermost */
	for (int i = 0; i < k; i++) {
		const struct cframe *c = &r->frames[first + i];
		struct lk_frame_text *f = &frames[i];
		f->function = c->function ? strdup(c->function) : NULL;
		f->file = c->file ? strdup(c->file) : NULL;
		f->module = strdup(m->name);
		f->module_path = strdup(m->path);
		f->line = c->line;
		f->offset = vaddr;
		f->inlined = c->inlined;
		if ((c->function && !f->function) || (c->file && !f->file) || !f->module ||
		    !f->module_path) {
			for (int j = 0; j <= i; j++)
				lk_frame_text_release(&frames[j]);
			return -ENOMEM;
		}
	}
	return k;
}
