/*
 * ghcdwarf.h - names of GHC code from its DWARF: the subprogram a code
 * address belongs to in a Haskell unit, whose blocks are lexical blocks
 * outside the subprogram's own range.
 */
#ifndef LK_COLLECTOR_GHCDWARF_H
#define LK_COLLECTOR_GHCDWARF_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>

/* Is cu (a compile unit's DIE) Haskell? */
bool lk_ghcdwarf_unit(Dwarf_Die *cu);

/* The name of the closure whose code holds DWARF address a in Haskell
 * unit cu, qualified by its module ("Leaky.leakBuffers.go"), malloc'ed;
 * NULL if no subprogram holds a, or with *failed set if memory ran out. */
char *lk_ghcdwarf_name(Dwarf_Die *cu, Dwarf_Addr a, int *failed);

#endif
