/*
 * threadregs.h - the registers of a stopped thread that may hold pointers:
 * the general ones, and every vector register (xmm, ymm, zmm, the opmask
 * and x87/MMX registers, from the XSAVE area ptrace gives), as
 * LeakSanitizer's use_registers does: a compiler may keep the only copy of
 * a pointer in any of them. Not those of a thread blocked in a system call:
 * it made the call through a function, and every vector register is
 * caller-saved (in the x86-64 psABI as in Go's internal ABI), so what they
 * hold is dead - a parked thread's stale copies, never a live pointer.
 */
#ifndef LK_COLLECTOR_THREADREGS_H
#define LK_COLLECTOR_THREADREGS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#define LK_GENERAL_REGS 17

/* The general registers of g that may hold pointers, into out (17 words). */
size_t lk_general_reg_words(const struct user_regs_struct *g, uint64_t *out);

/* The vector registers of the stopped tracee tid, whose general registers
 * are g, as 8-byte words appended to the malloc'ed array *words of *n
 * (grown as needed; none when g shows a system call): 0, or a negative
 * code (the array is left as it was). */
int lk_vector_reg_words(pid_t tid, const struct user_regs_struct *g, uint64_t **words,
			size_t *n);

#endif
