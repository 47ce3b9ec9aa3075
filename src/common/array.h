/*
 * array.h - room in an array that realloc made, for one more element or
 * for need of them: its capacity doubles, from a first size the caller
 * picks, so that n appends cost O(n) copies; or to a length the caller
 * picks, the new elements 0. Nothing is printed.
 */
#ifndef LK_COMMON_ARRAY_H
#define LK_COMMON_ARRAY_H

#include <stddef.h>

/* Room for need elements of elem bytes in *pptr (pptr: the address of the
 * array's pointer, of any type), which holds *cap now: unchanged when they
 * fit, else reallocated to *cap (first when *cap is 0) doubled until
 * they fit, and *cap updated. 0, or -ENOMEM with *pptr and *cap as they
 * were. */
int lk_array_grow(void *pptr, size_t *cap, size_t need, size_t elem, size_t first);

/* *pptr, an array of n elements of elem bytes, made new_n (> n) long, the
 * new elements 0. 0, or -ENOMEM with *pptr as it was. */
int lk_array_grow_zeroed(void *pptr, size_t elem, size_t n, size_t new_n);

#endif
