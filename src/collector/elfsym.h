/*
 * elfsym.h - addresses of named symbols in an ELF file's .symtab (a GHC or
 * Go binary has tens of thousands of symbols: the table of each file is
 * read once, and kept for the next processes of the same executable).
 */
#ifndef LK_COLLECTOR_ELFSYM_H
#define LK_COLLECTOR_ELFSYM_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/* out[i] = the link-time address of names[i] in path, or 0 where the file
 * has no such symbol (or cannot be read). Returns how many were found. */
size_t lk_elf_symbols(const char *path, const char *const *names, uint64_t *out, size_t n);

/* fn(arg, name, sym) for each symbol of e's .symtab sections that has a
 * name and an address; stops at fn's first non-zero return, and returns
 * it (else 0). */
int lk_elf_each_symbol(Elf *e, int (*fn)(void *arg, const char *name, const GElf_Sym *sym),
		       void *arg);

#endif
