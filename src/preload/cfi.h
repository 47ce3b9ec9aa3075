/*
 * cfi.h - the unwind rule of a code address, from its module's .eh_frame
 * (cfi.c), in the form the fast unwinder (unwind.c) applies.
 */
#ifndef LK_CFI_H
#define LK_CFI_H

#include <stdint.h>

#include "preload/preload.h"

enum {
	LK_CFI_RBP_BASED = 1, /* CFA = %rbp + cfa_off, else %rsp + cfa_off */
	LK_CFI_LAST = 2,      /* return address undefined: the outermost frame */
	LK_CFI_SLOW = 4,      /* not a standard frame: leave it to libunwind */
};

/* Caller's return address at CFA - 8; its %rsp is the CFA; its %rbp is
 * read from CFA + rbp_off, or unchanged when rbp_off is 0. */
struct lk_cfi_rule {
	int32_t cfa_off;
	int16_t rbp_off;
	uint8_t flags;
};

/* The rule for the instruction at pc (a return address minus one). */
LK_HIDDEN struct lk_cfi_rule lk_cfi_rule_at(uintptr_t pc);

#endif
