/*
 * elfsym.c - named symbols of an ELF file (elfsym.h).
 *
 * The scan asks each process's executable for a few names (is it a Go or
 * a GHC program?); a build runs thousands of processes of a few
 * executables, some with tens of thousands of symbols. So the table of a
 * file is read once - every named symbol's hash and address, sorted by
 * hash - and kept for the last few files, known by device, inode, size
 * and modification time.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector/elfsym.h"

#define CACHED_FILES 16

struct symhash {
	uint64_t hash, value;
};

struct symfile {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct symhash *syms;   /* sorted by hash */
	size_t n;
	unsigned long used;     /* for eviction: the least recently used goes */
};

static struct symfile cache[CACHED_FILES];
static unsigned long clock_tick;

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, then mixed */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

static int by_hash(const void *a, const void *b)
{
	const struct symhash *x = a, *y = b;
	return (x->hash > y->hash) - (x->hash < y->hash);
}

typedef int (*symbol_fn)(void *arg, const char *name, const GElf_Sym *sym);

static int each_in(Elf *e, GElf_Word type, symbol_fn fn, void *arg)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name = gelf_getsym(d, (int)i, &sym)
				? elf_strptr(e, sh.sh_link, sym.st_name) : NULL;
			int rc;
			if (name && *name && sym.st_value && (rc = fn(arg, name, &sym)))
				return rc;
		}
	}
	return 0;
}

int lk_elf_each_symbol(Elf *e, symbol_fn fn, void *arg)
{
	return each_in(e, SHT_SYMTAB, fn, arg);
}

struct table_fill {
	struct symfile *f;
	size_t cap;
};

static int add_symbol(void *arg, const char *name, const GElf_Sym *sym)
{
	struct table_fill *t = arg;
	struct symfile *f = t->f;
	if (f->n == t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 1024;
		struct symhash *a = realloc(f->syms, nc * sizeof(*a));
		if (!a)
			return -1;
		f->syms = a;
		t->cap = nc;
	}
	f->syms[f->n++] = (struct symhash){name_hash(name), sym->st_value};
	return 0;
}

/* Read the .symtab and .dynsym of the open file into f (a stripped
 * library has only the latter). */
static void read_symbols(int fd, struct symfile *f)
{
	struct table_fill t = {f, 0};
	Elf *e = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	if (e) {
		if (each_in(e, SHT_SYMTAB, add_symbol, &t) == 0)
			each_in(e, SHT_DYNSYM, add_symbol, &t);
		elf_end(e);
	}
	qsort(f->syms, f->n, sizeof(*f->syms), by_hash);
}

static struct symfile *symbols_of(const char *path)
{
	struct stat st;
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	struct symfile *f = &cache[0];
	for (int i = 0; i < CACHED_FILES; i++) {
		struct symfile *c = &cache[i];
		if (c->used && c->dev == st.st_dev && c->ino == st.st_ino && c->size == st.st_size &&
		    c->mtime.tv_sec == st.st_mtim.tv_sec && c->mtime.tv_nsec == st.st_mtim.tv_nsec) {
			close(fd);
			c->used = ++clock_tick;
			return c;
		}
		if (c->used < f->used)
			f = c;
	}
	free(f->syms);
	*f = (struct symfile){.dev = st.st_dev, .ino = st.st_ino, .size = st.st_size,
			      .mtime = st.st_mtim, .used = ++clock_tick};
	read_symbols(fd, f);
	close(fd);
	return f;
}

size_t lk_elf_symbols(const char *path, const char *const *names, uint64_t *out, size_t n)
{
	size_t found = 0;
	memset(out, 0, n * sizeof(*out));
	const struct symfile *f = symbols_of(path);
	for (size_t k = 0; f && k < n; k++) {
		uint64_t h = name_hash(names[k]);
		size_t lo = 0, hi = f->n;
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			if (f->syms[m].hash < h)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < f->n && f->syms[lo].hash == h) {
			out[k] = f->syms[lo].value;
			found++;
		}
	}
	return found;
}
