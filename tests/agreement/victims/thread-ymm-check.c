/*
 * thread-ymm-check.c - at a leak check while the program runs, a thread
 * holds the only pointer to a block in the upper half of a 256-bit vector
 * register (ymm3; xmm3 is zero); after the check it frees the block. The
 * thread is written in assembly so that no general register, stack slot
 * or memory holds the pointer (the 4 KiB below the stack pointer, where
 * malloc's frame was, are zeroed). thread-ymm-exit.c at a check instead of at
 * the end. Mirrors LSan's use_registers_extra (with a recoverable leak
 * check), for AVX registers.
 *
 * A correct checker: nothing lost, at the check or at the end; the
 * 7,333-byte block still reachable at the check; exit status 0.
 *
 * REQUIRES: avx
 * EXPECT: still-reachable >=7333 >=1; rc 0
 */
#include <pthread.h>
#include <sched.h>

#include "agree.h"

volatile int holder_ready, holder_stop;
void *holder(void *);

__asm__(".text\n"
	".type holder, @function\n"
	"holder:\n"
	"	push %rbx\n"
	"	mov $7333, %edi\n"
	"	call malloc@PLT\n"
	"	vmovq %rax, %xmm1\n"
	"	vpxor %xmm3, %xmm3, %xmm3\n"
	"	vinsertf128 $1, %xmm1, %ymm3, %ymm3\n"
	"	vpxor %xmm1, %xmm1, %xmm1\n"
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
	"	vextractf128 $1, %ymm3, %xmm0\n"
	"	vmovq %xmm0, %rdi\n"
	"	vzeroupper\n"
	"	call free@PLT\n"
	"	xor %eax, %eax\n"
	"	pop %rbx\n"
	"	ret\n"
	".size holder, .-holder\n");

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, holder, NULL) != 0)
		agree_fail(__func__);
	while (!holder_ready)
		sched_yield();
	agree_check();
	holder_stop = 1;
	pthread_join(t, NULL);
	return 0;
}
