/* threadregs.c - a stopped thread's registers as pointer candidates (threadregs.h). */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "collector/threadregs.h"

size_t lk_general_reg_words(const struct user_regs_struct *g, uint64_t *out)
{
	const uint64_t r[LK_GENERAL_REGS] = {g->rax, g->rbx, g->rcx, g->rdx, g->rsi, g->rdi,
					     g->rbp, g->r8, g->r9, g->r10, g->r11, g->r12,
					     g->r13, g->r14, g->r15, g->fs_base, g->gs_base};
	memcpy(out, r, sizeof(r));
	return LK_GENERAL_REGS;
}

/* The XSAVE area (standard format, as ptrace gives it): bytes 0-31 are the
 * x87 control words, 32-159 the x87/MMX registers, 160-415 xmm0-15,
 * 416-511 unused, 512-575 the XSAVE header; the extended components (ymm
 * upper halves, opmask, zmm upper halves, zmm16-31) follow from 576. */
#define XSAVE_MAX 16384
#define XSAVE_X87_REGS 32
#define XSAVE_HEADER 512
#define XSAVE_EXTENDED 576

int lk_vector_reg_words(pid_t tid, const struct user_regs_struct *g, uint64_t **words,
			size_t *n)
{
	static _Alignas(64) uint8_t area[XSAVE_MAX];
	if ((long long)g->orig_rax >= 0)
		return 0; /* in a system call: caller-saved, dead */
	struct iovec io = {area, sizeof(area)};
	if (ptrace(PTRACE_GETREGSET, tid, (void *)NT_X86_XSTATE, &io) != 0) {
		io.iov_len = 512; /* no XSAVE: the legacy area */
		if (ptrace(PTRACE_GETFPREGS, tid, 0, area) != 0)
			return -errno;
	}
	size_t len = io.iov_len < sizeof(area) ? io.iov_len : sizeof(area);
	size_t most = len / 8;
	uint64_t *w = realloc(*words, (*n + most) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	size_t k = *n;
	for (size_t at = XSAVE_X87_REGS; at + 8 <= len; at += 8) {
		if (at >= XSAVE_HEADER && at < XSAVE_EXTENDED)
			continue;
		memcpy(&w[k], area + at, 8);
		k += w[k] != 0;
	}
	*words = w;
	*n = k;
	return 0;
}
