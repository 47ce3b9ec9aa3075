/*
 * demangle.h - symbol names as a person reads them: C++, Rust, GHC.
 *
 * Both functions return a malloc'ed string owned by the caller, or NULL when
 * there is nothing to do (the name is not mangled, the encoding is invalid)
 * or memory ran out. Callers then show the name as it is.
 */
#ifndef LK_COLLECTOR_DEMANGLE_H
#define LK_COLLECTOR_DEMANGLE_H

/* "_ZNSt6vectorIiSaIiEE9push_backERKi" -> "std::vector<int, ...>::push_back(int const&)",
 * Rust legacy (hash dropped) and v0, GHC "Main_main1_info" -> "Main.main1".
 * NULL for names that are not mangled (C, Go "runtime.mallocgc"). */
char *lk_demangle(const char *sym);

/* The module of a GHC name, as lk_demangle shows it without the name:
 * "Leaky_zdwleakBuffers_info" -> "Leaky", "base_GHCziBase_map_info" ->
 * "base:GHC.Base". NULL for names that are not GHC's. */
char *lk_demangle_ghc_module(const char *sym);

/* Plain GHC z-decoding: "ForeignziMarshal" -> "Foreign.Marshal",
 * "Z2T" -> "(,)", "z3bbU" -> "λ". Characters that are not part of an
 * escape are copied. NULL if s holds an invalid escape. */
char *lk_zdecode(const char *s);

#endif
