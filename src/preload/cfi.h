/*
 * cfi.h - the unwind rules of a code address, read from its module's
 * .eh_frame (cfi.c): the whole row of the call frame table, which the
 * careful unwinder (unwind_full.c) applies, and the compact rule of a
 * standard frame, which the fast unwinder (unwind.c) caches.
 */
#ifndef LK_CFI_H
#define LK_CFI_H

#include <stdint.h>

#include "preload/preload.h"

/* DWARF register numbers of x86-64: 0-15 the general registers in the
 * order rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15; 16 the return
 * address (rip). */
enum { LK_REG_RBX = 3, LK_REG_RBP = 6, LK_REG_RSP = 7, LK_REG_RA = 16, LK_REGS = 17 };

/* Where the caller's value of a register is. */
enum lk_cfi_where {
	LK_CFI_SAME,      /* unchanged */
	LK_CFI_UNDEF,     /* lost (for the return address: the outermost frame) */
	LK_CFI_OFFSET,    /* in memory at CFA + v */
	LK_CFI_VAL_OFFSET,/* is CFA + v */
	LK_CFI_REGISTER,  /* in register v */
	LK_CFI_EXPR,      /* in memory at the address the expression computes */
	LK_CFI_VAL_EXPR,  /* is what the expression computes */
};

/* A rule; for the expression kinds, expr and len give the DWARF
 * expression (inside the module's .eh_frame, mapped while it is loaded). */
struct lk_cfi_reg {
	int64_t v;
	const uint8_t *expr;
	uint16_t len;
	uint8_t where;
};

/* One row: the CFA is register cfa_reg + cfa_off, or, when cfa_expr is
 * set, the value of that expression. */
struct lk_cfi_row {
	int cfa_reg;
	int64_t cfa_off;
	const uint8_t *cfa_expr;
	uint16_t cfa_len;
	uint8_t signal_frame; /* the CIE's 'S': a signal trampoline's frame */
	struct lk_cfi_reg reg[LK_REGS];
};

/* The row for the instruction at pc: 0; -1 when no FDE covers pc (code
 * without CFI); -2 when its CFI cannot be read. */
LK_HIDDEN int lk_cfi_row_at(uintptr_t pc, struct lk_cfi_row *row);

enum {
	LK_CFI_RBP_BASED = 1, /* CFA = %rbp + cfa_off, else %rsp + cfa_off */
	LK_CFI_LAST = 2,      /* return address undefined: the outermost frame */
	LK_CFI_SLOW = 4,      /* not a standard frame: the careful unwinder's */
	LK_CFI_NO_FDE = 8,    /* no CFI: the frame-pointer chain from here */
};

/* Caller's return address at CFA - 8; its %rsp is the CFA; its %rbp is
 * read from CFA + rbp_off, or unchanged when rbp_off is 0. */
struct lk_cfi_rule {
	int32_t cfa_off;
	int16_t rbp_off;
	uint8_t flags;
};

/* The fast rule for the instruction at pc (a return address minus one). */
LK_HIDDEN struct lk_cfi_rule lk_cfi_rule_at(uintptr_t pc);

#endif
