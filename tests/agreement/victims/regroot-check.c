/*
 * regroot-check.c - at a leak check while the program runs, the only
 * pointer to a block is in a callee-saved register (rbx) of the thread
 * that asked for the check: the holder is written in assembly, so that
 * no stack slot of its own holds the pointer (the 4 KiB below the stack
 * pointer, where malloc's frame was, are zeroed; the functions the check
 * calls save rbx in their live frames, as any callee would). After the
 * check the block is freed. Mirrors valgrind's leak-regroot.
 *
 * A correct checker: nothing lost, at the check or at the end; the
 * 6,161-byte block still reachable at the check; exit status 0.
 *
 * EXPECT: still-reachable >=6161 >=1; rc 0
 */
#include "agree.h"

void regroot_check(void);
void hold_in_rbx(void);

void regroot_check(void)
{
	agree_check();
}

__asm__(".text\n"
	".type hold_in_rbx, @function\n"
	"hold_in_rbx:\n"
	"	push %rbx\n"
	"	mov $6161, %edi\n"
	"	call malloc@PLT\n"
	"	mov %rax, %rbx\n"
	"	sub $4096, %rsp\n"
	"	mov %rsp, %rdi\n"
	"	mov $512, %ecx\n"
	"	xor %eax, %eax\n"
	"	rep stosq\n"
	"	add $4096, %rsp\n"
	"	xor %eax, %eax\n"
	"	xor %ecx, %ecx\n"
	"	xor %edx, %edx\n"
	"	xor %esi, %esi\n"
	"	xor %edi, %edi\n"
	"	xor %r8d, %r8d\n"
	"	xor %r9d, %r9d\n"
	"	xor %r10d, %r10d\n"
	"	xor %r11d, %r11d\n"
	"	call regroot_check\n"
	"	mov %rbx, %rdi\n"
	"	call free@PLT\n"
	"	pop %rbx\n"
	"	ret\n"
	".size hold_in_rbx, .-hold_in_rbx\n");

int main(void)
{
	hold_in_rbx();
	return 0;
}
