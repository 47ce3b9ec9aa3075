/*
 * thread-xmm-exit.c - a live thread holds the only pointer to a block in
 * a vector register (xmm0) when the process ends: main returns while the
 * thread spins. The thread is written in assembly so that no general
 * register, stack slot or memory holds the pointer (the 4 KiB below the
 * stack pointer, where malloc's frame was, are zeroed). Mirrors LSan's
 * use_registers_extra (and use_registers, reach_thread_register for the
 * general registers: thread-register-exit.c).
 *
 * A correct checker: nothing lost; the 7,331-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=7331 >=1; rc 0
 */
#include <pthread.h>
#include <sched.h>

#include "agree.h"

volatile int holder_ready, holder_stop;
void *xmm_holder(void *);

__asm__(".text\n"
	".type xmm_holder, @function\n"
	"xmm_holder:\n"
	"	push %rbx\n"
	"	mov $7331, %edi\n"
	"	call malloc@PLT\n"
	"	movq %rax, %xmm0\n"
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
	"	movl $1, holder_ready(%rip)\n"
	"1:	pause\n"
	"	cmpl $0, holder_stop(%rip)\n"
	"	je 1b\n"
	"	movq %xmm0, %rdi\n"
	"	call free@PLT\n"
	"	xor %eax, %eax\n"
	"	pop %rbx\n"
	"	ret\n"
	".size xmm_holder, .-xmm_holder\n");

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, xmm_holder, NULL) != 0)
		agree_fail(__func__);
	while (!holder_ready)
		sched_yield();
	return 0;
}
