/*
 * inject_stub.c - the code an attach makes a thread of the target run
 * (collector/inject.h): never executed here, copied into the target, into
 * the unused bytes past the end of a module's code.
 *
 * The thread enters it with every register as the program left it but
 * %rip, and %rsp lowered by the red zone (128 bytes) and the program's
 * %rip stored there as a return address. The stub saves its flags and the
 * registers it will use on that stack (80 bytes), maps a stack of its own and goes on
 * there: saves the rest and the extended (SSE/AVX) state with xsave, blocks
 * every signal, calls dlopen(library, RTLD_NOW | RTLD_LOCAL), dlsym(handle,
 * symbol) and the function found with (argument, number), makes a getpid
 * system call whose %rip the tracer knows and whose registers carry the
 * outcome (%rdi: enum lk_stub_status, %rsi: the function's value, %rdx:
 * the handle), and then undoes all of it and returns into the program.
 *
 * Once the thread is in it, the stub needs no one: if leakscope dies, the
 * thread finishes the stub and goes on as before.
 *
 * Six words of parameters follow the code (lk_stub_params: dlopen, dlsym,
 * the number, where the symbol and the argument start among the strings,
 * 0), then the strings: the library, the symbol, the argument.
 */
#include "collector/inject.h"

__asm__(
	".section .rodata\n"
	".p2align 4\n"
	".globl lk_stub_code\n"
	".hidden lk_stub_code\n"
	".globl lk_stub_params\n"
	".hidden lk_stub_params\n"
	".intel_syntax noprefix\n"
	"lk_stub_code:\n"
	/* the program's flags and volatile registers, on its stack */
	"	pushfq\n"
	"	push rax\n	push rcx\n	push rdx\n	push rsi\n	push rdi\n"
	"	push r8\n	push r9\n	push r10\n	push r11\n"
	/* mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) */
	"	xor edi, edi\n"
	"	mov esi, 0x40000\n"
	"	mov edx, 3\n"
	"	mov r10d, 0x22\n"
	"	mov r8, -1\n"
	"	xor r9d, r9d\n"
	"	mov eax, 9\n"
	"	syscall\n"
	"	cmp rax, -4096\n"
	"	ja 9f\n"
	/* our stack: [top-8] the program's %rsp, [top-16] the mapping */
	"	lea rcx, [rax + 0x40000]\n"
	"	mov [rcx - 8], rsp\n"
	"	mov [rcx - 16], rax\n"
	"	lea rsp, [rcx - 16]\n"
	"	push rbx\n	push rbp\n	push r12\n	push r13\n	push r14\n	push r15\n"
	"	mov rbp, rsp\n"
	/* [rbp-8] every signal, [rbp-16] the program's mask */
	"	sub rsp, 16\n"
	"	mov qword ptr [rbp - 8], -1\n"
	"	mov edi, 2\n"                 /* SIG_SETMASK */
	"	lea rsi, [rbp - 8]\n"
	"	lea rdx, [rbp - 16]\n"
	"	mov r10d, 8\n"
	"	mov eax, 14\n"                /* rt_sigprocmask */
	"	syscall\n"
	/* the extended state: xsave's area as large as this CPU's */
	"	mov eax, 0xd\n"
	"	xor ecx, ecx\n"
	"	cpuid\n"
	"	sub rsp, rbx\n"
	"	and rsp, -64\n"
	"	mov eax, -1\n"
	"	mov edx, -1\n"
	"	xsave64 [rsp]\n"
	"	mov r12d, 1\n"                /* LK_STUB_NO_LIBRARY */
	"	xor r13d, r13d\n"
	"	xor r14d, r14d\n"
	"	lea r15, [rip + lk_stub_params]\n"
	"	lea rdi, [r15 + 48]\n"        /* the library's path */
	"	mov esi, 2\n"                 /* RTLD_NOW | RTLD_LOCAL */
	"	call [r15]\n"                 /* dlopen */
	"	test rax, rax\n"
	"	jz 2f\n"
	"	mov r14, rax\n"
	"	mov r12d, 2\n"                /* LK_STUB_NO_SYMBOL */
	"	mov rdi, rax\n"
	"	lea rsi, [r15 + 48]\n"
	"	add rsi, [r15 + 24]\n"        /* the symbol */
	"	call [r15 + 8]\n"             /* dlsym */
	"	test rax, rax\n"
	"	jz 2f\n"
	"	lea rdi, [r15 + 48]\n"
	"	add rdi, [r15 + 32]\n"        /* the argument */
	"	mov esi, [r15 + 16]\n"        /* the number */
	"	call rax\n"
	"	movsxd r13, eax\n"
	"	xor r12d, r12d\n"             /* LK_STUB_CALLED */
	"2:	mov eax, -1\n"
	"	mov edx, -1\n"
	"	xrstor64 [rsp]\n"
	/* the outcome, where the tracer looks */
	"	mov rdi, r12\n"
	"	mov rsi, r13\n"
	"	mov rdx, r14\n"
	"	mov eax, 39\n"                /* getpid */
	"	syscall\n"
	"	mov edi, 2\n"
	"	lea rsi, [rbp - 16]\n"
	"	xor edx, edx\n"
	"	mov r10d, 8\n"
	"	mov eax, 14\n"
	"	syscall\n"
	"	mov rsp, rbp\n"
	"	pop r15\n	pop r14\n	pop r13\n	pop r12\n	pop rbp\n	pop rbx\n"
	/* back on the program's stack, our own unmapped */
	"	mov rdi, [rsp]\n"
	"	mov rsp, [rsp + 8]\n"
	"	mov esi, 0x40000\n"
	"	mov eax, 11\n"                /* munmap */
	"	syscall\n"
	"	jmp 8f\n"
	/* no stack of our own: say so, give everything back */
	"9:	mov edi, 3\n"                 /* LK_STUB_NO_STACK */
	"	xor esi, esi\n"
	"	xor edx, edx\n"
	"	mov eax, 39\n"
	"	syscall\n"
	"8:	pop r11\n	pop r10\n	pop r9\n	pop r8\n	pop rdi\n"
	"	pop rsi\n	pop rdx\n	pop rcx\n	pop rax\n"
	"	popfq\n"
	"	ret 128\n"
	".p2align 3\n"
	"lk_stub_params:\n"
	"	.skip 48\n"
	".att_syntax prefix\n"
	".text\n");
