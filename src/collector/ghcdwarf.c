/*
 * ghcdwarf.c - names of GHC code from its DWARF (ghc -g), ghcdwarf.h.
 *
 * GHC describes a Haskell unit's code differently from a C compiler: a
 * DW_TAG_subprogram per closure, named by its binding in the source
 * ("leakBuffers.go" for go, local to leakBuffers), whose own range is only
 * the entry block; the closure's other blocks - continuations, the code
 * a return address points into - are DW_TAG_lexical_block children with
 * ranges of their own, outside the subprogram's. A scope lookup by address
 * thus misses them. Here the subprogram is the one whose own range or one
 * of whose lexical blocks holds the address.
 *
 * Names are qualified by the unit's module as the demangler shows GHC
 * symbols ("Leaky.leakBuffers.go"). The module is not written in the
 * unit; it is the module of an exported closure's linkage name
 * (Leaky_leakBuffers_info: "Leaky"). An exported closure is named by its
 * linkage name ("Leaky.$wleakBuffers", whose source name is leakBuffers);
 * local closures' linkage names (s1VD_info) say nothing, so their source
 * name is qualified by the module.
 */
#include <stdlib.h>
#include <string.h>

#include "collector/demangle.h"
#include "collector/ghcdwarf.h"

#define DW_LANG_HASKELL 0x18

bool lk_ghcdwarf_unit(Dwarf_Die *cu)
{
	return dwarf_srclang(cu) == DW_LANG_HASKELL;
}

/* 1 if die or one of its lexical blocks, at any depth, holds a. */
static int holds(Dwarf_Die *die, Dwarf_Addr a)
{
	Dwarf_Die child;
	if (dwarf_haspc(die, a) == 1)
		return 1;
	if (dwarf_child(die, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_lexical_block && holds(&child, a))
			return 1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static const char *attr_string(Dwarf_Die *die, int name)
{
	Dwarf_Attribute at;
	return dwarf_formstring(dwarf_attr(die, name, &at));
}

static const char *linkage(Dwarf_Die *die)
{
	const char *l = attr_string(die, DW_AT_linkage_name);
	return l ? l : attr_string(die, DW_AT_MIPS_linkage_name);
}

/* The module a subprogram's linkage name shows, as "Leaky" (malloc'ed),
 * or NULL. */
static char *module_of(Dwarf_Die *sub)
{
	return lk_demangle_ghc_module(linkage(sub));
}

/* The name of subprogram sub in module mod (which may be NULL). */
static char *name_of(Dwarf_Die *sub, const char *mod, int *failed)
{
	const char *link = linkage(sub), *name = attr_string(sub, DW_AT_name);
	char *d = link ? lk_demangle(link) : NULL;
	if (d || !name)
		return d;
	size_t nm = mod ? strlen(mod) + 1 : 0, nn = strlen(name);
	char *q = malloc(nm + nn + 1);
	if (!q) {
		*failed = 1;
		return NULL;
	}
	if (mod) {
		memcpy(q, mod, nm - 1);
		q[nm - 1] = '.';
	}
	memcpy(q + nm, name, nn + 1);
	return q;
}

char *lk_ghcdwarf_name(Dwarf_Die *cu, Dwarf_Addr a, int *failed)
{
	Dwarf_Die child, found;
	char *mod = NULL;
	bool hit = false;
	*failed = 0;
	if (dwarf_child(cu, &child) != 0)
		return NULL;
	do {
		if (dwarf_tag(&child) != DW_TAG_subprogram)
			continue;
		if (!mod)
			mod = module_of(&child);
		if (!hit && holds(&child, a)) {
			found = child;
			hit = true;
		}
	} while ((!hit || !mod) && dwarf_siblingof(&child, &child) == 0);
	char *name = hit ? name_of(&found, mod, failed) : NULL;
	free(mod);
	return name;
}
