/*
 * vector-reg: a thread keeps the only pointer to a 4,242-byte block in
 * %xmm7 (no general register, no stack slot: the allocation is made and
 * moved in assembly, the caller-saved registers cleared, the stack below
 * scrubbed) and spins while the main thread ends the process. Registers of
 * a live thread are roots, vector registers too (LeakSanitizer's
 * use_registers_extra): the block is still reachable; nothing is lost.
 */
#include <pthread.h>
#include <unistd.h>

static volatile int ready;

__attribute__((noinline)) static void scrub(void)
{
	volatile char z[8192];
	for (int i = 0; i < 8192; i++)
		z[i] = 0;
}

static void *holder(void *arg)
{
	__asm__ volatile("mov $4242, %%edi\n\t"
			 "call malloc@PLT\n\t"
			 "movq %%rax, %%xmm7\n\t"
			 "xor %%eax, %%eax\n\txor %%ecx, %%ecx\n\txor %%edx, %%edx\n\t"
			 "xor %%esi, %%esi\n\txor %%edi, %%edi\n\txor %%r8d, %%r8d\n\t"
			 "xor %%r9d, %%r9d\n\txor %%r10d, %%r10d\n\txor %%r11d, %%r11d"
			 ::: "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm7",
			 "memory");
	scrub();
	ready = 1;
	for (;;)
		__asm__ volatile("pause" ::: "memory");
	return arg;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, holder, NULL);
	while (!ready)
		usleep(1000);
	usleep(20000);
	return 0;
}
