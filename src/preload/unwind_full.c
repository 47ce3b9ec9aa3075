/*
 * unwind_full.c - the careful unwinder: the stacks the fast one (unwind.c)
 * steps aside from, and what lies past the end of CFI.
 *
 * It starts from every register of its caller (an assembly entry stores
 * them) and applies, frame by frame, the whole row of the call frame table
 * (cfi.c): a CFA given by any register or by a DWARF expression, each
 * register restored from memory, from another register or by an
 * expression, signal frames (glibc's __restore_rt describes the saved
 * context with expressions; the frame it interrupted is looked up at its
 * exact pc, not the one before). Where no FDE covers a frame's code - Go
 * and GHC code, JIT code - it takes one step along the frame-pointer chain
 * from the %rbp it recovered (Go keeps one), and CFI again where the next
 * frame has it; when the first such frame is no chain, it is GHC code,
 * whose %rbp is the Haskell stack pointer: the Haskell stack's frames
 * (ghcstack.c) end the stack.
 *
 * Memory the rules point at is read through lk_safe_word(): a page is
 * checked once with process_vm_readv (which fails where a read would
 * fault), then remembered by the thread, so a steady stream of the same
 * stacks costs no system call. Remembered pages are those of this
 * thread's stacks (and of Go's and GHC's stacks, whose memory those
 * runtimes never unmap), read again only while they hold live frames.
 */
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "preload/cfi.h"
#include "preload/preload.h"

#define PAGE_MASK (~(uintptr_t)4095)
#define SAFE_PAGES 16

static __thread uintptr_t safe_page[SAFE_PAGES];
static __thread unsigned safe_next;

static int known_page(uintptr_t page)
{
	for (int i = 0; i < SAFE_PAGES; i++)
		if (safe_page[i] == page)
			return 1;
	return 0;
}

LK_HIDDEN int lk_safe_word(uintptr_t addr, uintptr_t *out)
{
	uintptr_t page = addr & PAGE_MASK;
	if (addr < 4096 || addr + sizeof(*out) < addr)
		return -1;
	if (known_page(page) && ((addr + sizeof(*out) - 1) & PAGE_MASK) == page) {
		memcpy(out, (const void *)addr, sizeof(*out));
		return 0;
	}
	struct iovec local = {out, sizeof(*out)}, remote = {(void *)addr, sizeof(*out)};
	if (syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0) !=
	    (long)sizeof(*out))
		return -1;
	if (((addr + sizeof(*out) - 1) & PAGE_MASK) == page) {
		safe_page[safe_next] = page;
		safe_next = (safe_next + 1) % SAFE_PAGES;
	}
	return 0;
}

LK_HIDDEN int lk_unwind_fp_step(uintptr_t *bp, uintptr_t *ra)
{
	uintptr_t w0, w1, b = *bp;
	if (!b || (b & 7) || lk_safe_word(b, &w0) != 0 || lk_safe_word(b + 8, &w1) != 0 ||
	    w0 <= b || w0 - b >= (1u << 20) || !lk_modules_contain(w1))
		return 0;
	*bp = w0;
	*ra = w1;
	return 1;
}

/* A DWARF expression of CFI (DWARF 5, section 2.5): the operations GCC,
 * clang and glibc's hand-written CFI use. */
#define EXPR_STACK 16

struct expr {
	const uint8_t *start, *p, *end;
	uint64_t st[EXPR_STACK];
	int sp;
};

static int expr_leb(struct expr *e, int is_signed, uint64_t *out)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (e->p >= e->end)
			return -1;
		uint8_t byte = *e->p++;
		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			if (is_signed && shift + 7 < 64 && (byte & 0x40))
				v |= ~(uint64_t)0 << (shift + 7);
			*out = v;
			return 0;
		}
	}
	return -1;
}

/* A constant of `size` bytes, sign-extended if is_signed. */
static int expr_const(struct expr *e, int size, int is_signed, uint64_t *out)
{
	uint64_t v = 0;
	if (e->end - e->p < size)
		return -1;
	memcpy(&v, e->p, (size_t)size);
	e->p += size;
	if (is_signed && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~(uint64_t)0 << (size * 8);
	*out = v;
	return 0;
}

static int expr_binary(uint8_t op, uint64_t a, uint64_t b, uint64_t *out)
{
	switch (op) {
	case 0x1a: *out = a & b; return 0;
	case 0x1c: *out = a - b; return 0;
	case 0x1e: *out = a * b; return 0;
	case 0x21: *out = a | b; return 0;
	case 0x22: *out = a + b; return 0;
	case 0x24: *out = b < 64 ? a << b : 0; return 0;
	case 0x25: *out = b < 64 ? a >> b : 0; return 0;
	case 0x27: *out = a ^ b; return 0;
	case 0x29: *out = a == b; return 0;
	case 0x2a: *out = (int64_t)a >= (int64_t)b; return 0;
	case 0x2b: *out = (int64_t)a > (int64_t)b; return 0;
	case 0x2c: *out = (int64_t)a <= (int64_t)b; return 0;
	case 0x2d: *out = (int64_t)a < (int64_t)b; return 0;
	case 0x2e: *out = a != b; return 0;
	}
	return -1;
}

/* One operation; 0 or -1. */
static int expr_op(struct expr *e, const uint64_t *regs)
{
	uint8_t op = *e->p++;
	uint64_t v, b;
	if (op >= 0x30 && op <= 0x4f) { /* lit0..lit31 */
		v = op - 0x30u;
	} else if (op >= 0x70 && op <= 0x8f) { /* breg0..breg31 */
		if (op - 0x70 >= LK_REGS || expr_leb(e, 1, &v) != 0)
			return -1;
		v += regs[op - 0x70];
	} else if (op >= 0x08 && op <= 0x0f) { /* const1u .. const8s */
		static const int size[] = {1, 1, 2, 2, 4, 4, 8, 8};
		if (expr_const(e, size[op - 0x08], op & 1, &v) != 0)
			return -1;
	} else if (op == 0x10 || op == 0x11) { /* constu, consts */
		if (expr_leb(e, op == 0x11, &v) != 0)
			return -1;
	} else {
		int sp = e->sp;
		switch (op) {
		case 0x06: /* deref */
			return sp >= 1 && lk_safe_word((uintptr_t)e->st[sp - 1],
						       (uintptr_t *)&e->st[sp - 1]) == 0 ? 0 : -1;
		case 0x12: if (sp < 1) return -1; v = e->st[sp - 1]; break;  /* dup */
		case 0x13: if (sp < 1) return -1; e->sp--; return 0;         /* drop */
		case 0x14: if (sp < 2) return -1; v = e->st[sp - 2]; break;  /* over */
		case 0x16: /* swap */
			if (sp < 2)
				return -1;
			v = e->st[sp - 1];
			e->st[sp - 1] = e->st[sp - 2];
			e->st[sp - 2] = v;
			return 0;
		case 0x1f: if (sp < 1) return -1; e->st[sp - 1] = -e->st[sp - 1]; return 0;
		case 0x20: if (sp < 1) return -1; e->st[sp - 1] = ~e->st[sp - 1]; return 0;
		case 0x23: /* plus_uconst */
			if (sp < 1 || expr_leb(e, 0, &v) != 0)
				return -1;
			e->st[sp - 1] += v;
			return 0;
		case 0x28: /* bra */
		case 0x2f: /* skip */
			if (expr_const(e, 2, 1, &v) != 0)
				return -1;
			if (op == 0x28) {
				if (sp < 1)
					return -1;
				if (e->st[--e->sp] == 0)
					return 0;
			}
			if ((int64_t)v < -(e->p - e->start) || (int64_t)v > e->end - e->p)
				return -1;
			e->p += (int64_t)v;
			return 0;
		case 0x96: return 0; /* nop */
		default:
			if (sp < 2 || expr_binary(op, e->st[sp - 2], e->st[sp - 1], &b) != 0)
				return -1; /* regx, pick, deref_size, ...: not in CFI */
			e->st[sp - 2] = b;
			e->sp--;
			return 0;
		}
	}
	if (e->sp == EXPR_STACK)
		return -1;
	e->st[e->sp++] = v;
	return 0;
}

/* The value of an expression, with `push` on the stack first when pushed. */
static int expr_eval(const uint8_t *p, uint16_t len, const uint64_t *regs, uint64_t push,
		     int pushed, uint64_t *out)
{
	struct expr e = {.start = p, .p = p, .end = p + len};
	if (pushed)
		e.st[e.sp++] = push;
	while (e.p < e.end)
		if (expr_op(&e, regs) != 0)
			return -1;
	if (e.sp < 1)
		return -1;
	*out = e.st[e.sp - 1];
	return 0;
}

/* One register of the caller by its rule; 0 or -1. */
static int caller_reg(const struct lk_cfi_reg *rule, const uint64_t *regs, uint64_t cfa, int r,
		      uint64_t *out)
{
	uint64_t at;
	switch (rule->where) {
	case LK_CFI_SAME: *out = regs[r]; return 0;
	case LK_CFI_UNDEF: *out = 0; return 0;
	case LK_CFI_OFFSET: return lk_safe_word(cfa + (uint64_t)rule->v, (uintptr_t *)out);
	case LK_CFI_VAL_OFFSET: *out = cfa + (uint64_t)rule->v; return 0;
	case LK_CFI_REGISTER:
		if (rule->v < 0 || rule->v >= LK_REGS)
			return -1;
		*out = regs[rule->v];
		return 0;
	case LK_CFI_EXPR:
		if (expr_eval(rule->expr, rule->len, regs, cfa, 1, &at) != 0)
			return -1;
		return lk_safe_word(at, (uintptr_t *)out);
	case LK_CFI_VAL_EXPR: return expr_eval(rule->expr, rule->len, regs, cfa, 1, out);
	}
	return -1;
}

/* The caller's registers by the row: 0, or -1 when a rule cannot be applied. */
static int step(const struct lk_cfi_row *row, uint64_t *regs)
{
	uint64_t cfa, caller[LK_REGS];
	if (row->cfa_expr) {
		if (expr_eval(row->cfa_expr, row->cfa_len, regs, 0, 0, &cfa) != 0)
			return -1;
	} else {
		if (row->cfa_reg < 0 || row->cfa_reg >= LK_REGS)
			return -1;
		cfa = regs[row->cfa_reg] + (uint64_t)row->cfa_off;
	}
	for (int r = 0; r < LK_REGS; r++)
		if (caller_reg(&row->reg[r], regs, cfa, r, &caller[r]) != 0)
			return -1;
	if (row->reg[LK_REG_RSP].where == LK_CFI_SAME)
		caller[LK_REG_RSP] = cfa; /* the CFA is the caller's %rsp */
	memcpy(regs, caller, sizeof(caller));
	return 0;
}

/* Frames from regs (all of them, by DWARF number; regs[LK_REG_RA] is the
 * return address into the caller of lk_unwind_full). */
LK_HIDDEN int lk_unwind_from(void **ips, int max, uint64_t *regs)
{
	int n = 0, exact_pc = 0, chained = 0;
	uint64_t ip = regs[LK_REG_RA];
	while (n < max && ip >= 0x4000) {
		ips[n++] = (void *)ip;
		struct lk_cfi_row row;
		int rc = lk_cfi_row_at(ip - (exact_pc ? 0 : 1), &row);
		exact_pc = 0;
		if (rc == -1) { /* no CFI: the frame-pointer chain */
			uintptr_t bp = regs[LK_REG_RBP], ra;
			if (lk_unwind_fp_step(&bp, &ra)) {
				regs[LK_REG_RSP] = regs[LK_REG_RBP] + 16;
				regs[LK_REG_RBP] = bp;
				ip = ra;
				chained = 1;
				continue;
			}
			if (!chained) /* GHC code: %rbp is its stack pointer */
				n += lk_ghc_stack(bp, ips + n, max - n);
			break;
		}
		chained = 0;
		if (rc != 0 || row.reg[LK_REG_RA].where == LK_CFI_UNDEF || step(&row, regs) != 0)
			break;
		exact_pc = row.signal_frame;
		ip = regs[LK_REG_RA];
	}
	return n;
}

/* lk_unwind_full(ips, max): store the caller's registers in DWARF order
 * (rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, return address) and
 * unwind from them. %rsp is the caller's after the return. */
__asm__(".text\n"
	".globl lk_unwind_full\n"
	".hidden lk_unwind_full\n"
	".type lk_unwind_full, @function\n"
	"lk_unwind_full:\n"
	".cfi_startproc\n"
	"	sub $152, %rsp\n"
	".cfi_adjust_cfa_offset 152\n"
	"	mov %rax, 0(%rsp)\n"
	"	mov %rdx, 8(%rsp)\n"
	"	mov %rcx, 16(%rsp)\n"
	"	mov %rbx, 24(%rsp)\n"
	"	mov %rsi, 32(%rsp)\n"
	"	mov %rdi, 40(%rsp)\n"
	"	mov %rbp, 48(%rsp)\n"
	"	lea 160(%rsp), %rax\n"
	"	mov %rax, 56(%rsp)\n"
	"	mov %r8, 64(%rsp)\n"
	"	mov %r9, 72(%rsp)\n"
	"	mov %r10, 80(%rsp)\n"
	"	mov %r11, 88(%rsp)\n"
	"	mov %r12, 96(%rsp)\n"
	"	mov %r13, 104(%rsp)\n"
	"	mov %r14, 112(%rsp)\n"
	"	mov %r15, 120(%rsp)\n"
	"	mov 152(%rsp), %rax\n"
	"	mov %rax, 128(%rsp)\n"
	"	mov %rsp, %rdx\n"
	"	call lk_unwind_from\n"
	"	add $152, %rsp\n"
	".cfi_adjust_cfa_offset -152\n"
	"	ret\n"
	".cfi_endproc\n"
	".size lk_unwind_full, .-lk_unwind_full\n");
