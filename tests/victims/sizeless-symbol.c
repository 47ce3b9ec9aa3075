/*
 * sizeless-symbol: code without a symbol of its own right after a
 * zero-size one, as GHC's code lies after crtstuff's frame_dummy. The
 * assembly below defines sizeless_label (no .size) and, after it, code
 * reached only through a data pointer that mallocs 4,321 bytes; main drops
 * the block (definitely lost). A report must not name that code
 * sizeless_label: it is the module and an offset.
 */
#include <stdlib.h>

__asm__(".text\n"
	".globl sizeless_label\n"
	".type sizeless_label, @function\n"
	"sizeless_label:\n"
	"	ret\n"
	"	.p2align 4\n"
	".Lunnamed:\n"
	"	.cfi_startproc\n"
	"	sub $8, %rsp\n"
	"	.cfi_def_cfa_offset 16\n"
	"	mov $4321, %edi\n"
	"	call malloc@PLT\n"
	"	add $8, %rsp\n"
	"	.cfi_def_cfa_offset 8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".section .data.rel.ro, \"aw\"\n"
	".globl unnamed_code\n"
	".p2align 3\n"
	"unnamed_code:\n"
	"	.quad .Lunnamed\n"
	".text\n");

extern void *(*const unnamed_code)(void);

int main(void)
{
	void *volatile p = unnamed_code();
	p = NULL;
	return p != NULL;
}
