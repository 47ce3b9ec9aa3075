/*
 * infotables.c - -hi bands named from the executable's symbol table
 * (infotables.h).
 *
 * GHC lays an info table just before its entry code and names the code's
 * address `<pkg>_<Module>_<name>_info` (tables next to code); a -hi census
 * (and an IPE event) gives the address of the table's standard part, two
 * words before it (StgInfoTable: layout, then type and SRT half-words).
 * Nothing in the eventlog identifies the build (no build id), so the
 * file must prove itself: every band's table must lie in its code, any
 * symbol there must be an info table, and at least one must be; else
 * nothing is named. Tables with no symbol (local closures of a library:
 * GHC gives them assembler-local labels) stay addresses. A
 * position-independent file is refused: its link-time addresses are not
 * those of the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/demangle.h"
#include "collector/elfsym.h"
#include "eventlog/infotables.h"

struct sym {
	uint64_t addr;
	const char *name;   /* in the ELF's string table: valid until elf_end */
};

struct symtab {
	struct sym *s;
	size_t n, cap;
	uint64_t table_size;  /* StgInfoTable: two words */
	uint64_t code[8][2];  /* [start, end) of executable sections */
	size_t n_code;
};

static int by_addr(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A symbol that has an address (not a section's or a file's). */
static int add_symbol(void *arg, const char *name, const GElf_Sym *sym)
{
	struct symtab *t = arg;
	int type = GELF_ST_TYPE(sym->st_info);
	if (type == STT_SECTION || type == STT_FILE)
		return 0;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct sym *s = realloc(t->s, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		t->s = s;
		t->cap = cap;
	}
	t->s[t->n++] = (struct sym){sym->st_value, name};
	return 0;
}

/* The symbols by address, and where the code is. */
static int read_symtab(Elf *e, struct symtab *t)
{
	int rc = lk_elf_each_symbol(e, add_symbol, t);
	if (rc)
		return rc;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
		    (sh.sh_flags & SHF_ALLOC) && t->n_code < 8) {
			t->code[t->n_code][0] = sh.sh_addr;
			t->code[t->n_code++][1] = sh.sh_addr + sh.sh_size;
		}
	}
	if (t->n)
		qsort(t->s, t->n, sizeof(*t->s), by_addr);
	return 0;
}

/* The info table symbol of the table at address table (its code's
 * symbol); else NULL, with *other the name of another symbol there, if
 * any. */
static const char *info_at(const struct symtab *t, uint64_t table, const char **other)
{
	uint64_t addr = table + t->table_size;
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->s[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*other = NULL;
	for (; lo < t->n && t->s[lo].addr == addr; lo++) {
		if (ends_with(t->s[lo].name, "_info"))
			return t->s[lo].name;
		*other = t->s[lo].name;
	}
	return NULL;
}

/* The info table address of a -hi band ("0x43d840"), or 0. */
static uint64_t table_address(const struct lk_band *b)
{
	if (!b->details || strncmp(b->id, "0x", 2) != 0)
		return 0;
	char *end;
	uint64_t addr = strtoull(b->id + 2, &end, 16);
	return *end == 0 ? addr : 0;
}

/* ... of a band still labelled by it: no IPE entry named it. */
static uint64_t bare_address(const struct lk_band *b)
{
	return b->details && !b->details[0] && strcmp(b->label, b->id) == 0 ? table_address(b) : 0;
}

static int in_code(const struct symtab *t, uint64_t addr)
{
	for (size_t i = 0; i < t->n_code; i++)
		if (addr >= t->code[i][0] && addr < t->code[i][1])
			return 1;
	return 0;
}

static char *refusal(const char *path, const char *why, uint64_t addr, const char *other)
{
	char *s = NULL;
	int n = addr ? asprintf(&s, "-hi bands not named by symbol: '%s' does not match the "
				"eventlog (the table at 0x%llx %s%s%s)", path,
				(unsigned long long)addr, other ? "is " : "is not in its code",
				other ? other : "", other ? ", not an info table" : "")
		     : asprintf(&s, "-hi bands not named by symbol: '%s' %s", path, why);
	return n < 0 ? NULL : s;
}

/* Why the executable e cannot name the bands (a refusal), NULL if it can:
 * every bare address is an info table in it. */
static const char *check(Elf *e, struct symtab *t, const struct lk_timeline *tl,
			 uint64_t *bad, const char **other)
{
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh))
		return "is not an ELF file";
	if (eh.e_type == ET_DYN)
		return "is position-independent (the run-time addresses of its info "
		       "tables are not known)";
	if (eh.e_type != ET_EXEC)
		return "is not an executable";
	t->table_size = eh.e_ident[EI_CLASS] == ELFCLASS64 ? 16 : 8;
	if (t->n == 0)
		return "has no symbol table";
	size_t named = 0;
	for (size_t k = 0; k < tl->n_bands; k++) {
		uint64_t addr = table_address(&tl->bands[k]);
		if (!addr)
			continue;
		if (info_at(t, addr, other)) {
			named++;
		} else if (*other || !in_code(t, addr + t->table_size)) {
			*bad = addr;
			return "does not match";
		}
	}
	return named ? NULL : "has no info table at any address of the eventlog";
}

/* The "named by" column: "IPE" where an entry named the band. */
static int add_column(struct lk_timeline *tl)
{
	size_t n = tl->n_detail_columns;
	char **cols = realloc(tl->detail_columns, (n + 1) * sizeof(*cols));
	if (!cols)
		return -ENOMEM;
	tl->detail_columns = cols;
	if (!(cols[n] = strdup("named by")))
		return -ENOMEM;
	tl->n_detail_columns = n + 1;
	for (size_t k = 0; k < tl->n_bands; k++) {
		struct lk_band *b = &tl->bands[k];
		char **d = realloc(b->details, (n + 1) * sizeof(*d));
		if (!d)
			return -ENOMEM;
		b->details = d;
		d[n] = NULL;
		if (d[0] && !(d[n] = strdup("IPE")))
			return -ENOMEM;
	}
	return 0;
}

/* "base_GHCziShow_zdwshowSignedInt_info" -> "base:GHC.Show.$wshowSignedInt_info";
 * an RTS name (stg_BLACKHOLE_info) as it is. */
static char *info_name(const char *sym)
{
	char *plain = strncmp(sym, "stg_", 4) ? lk_demangle(sym) : NULL, *s = NULL;
	if (!plain)
		return strdup(sym);
	const char *suffix = ends_with(sym, "_con_info") ? "_con_info" : "_info";
	if (asprintf(&s, "%s%s", plain, suffix) < 0)
		s = NULL;
	free(plain);
	return s;
}

static int name_bands(struct lk_timeline *tl, const struct symtab *t)
{
	size_t col = tl->n_detail_columns;
	int rc = add_column(tl);
	for (size_t k = 0; k < tl->n_bands && !rc; k++) {
		struct lk_band *b = &tl->bands[k];
		const char *other, *sym;
		uint64_t addr = bare_address(b);
		if (!addr || !(sym = info_at(t, addr, &other)))
			continue;
		char *label = info_name(sym);
		if (!label || !(b->details[0] = strdup(sym)) || !(b->details[col] = strdup("symbol"))) {
			free(label);
			return -ENOMEM;
		}
		free(b->label);
		b->label = label;
	}
	return rc;
}

int lk_infotables_name(struct lk_timeline *tl, const char *path, char **refused)
{
	*refused = NULL;
	int any = 0;
	for (size_t k = 0; k < tl->n_bands && !any; k++)
		any = bare_address(&tl->bands[k]) != 0;
	if (!any)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE
		 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	struct symtab t = {0};
	int rc = e ? read_symtab(e, &t) : 0;
	uint64_t bad = 0;
	const char *other = NULL;
	const char *why = rc ? NULL : !e ? "cannot be read as an ELF file"
					 : check(e, &t, tl, &bad, &other);
	if (!rc && why)
		rc = (*refused = refusal(path, why, bad, other)) ? 0 : -ENOMEM;
	else if (!rc)
		rc = name_bands(tl, &t);
	free(t.s);
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return rc;
}
