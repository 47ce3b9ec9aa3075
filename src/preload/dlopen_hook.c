/*
 * dlopen_hook.c - after `leakscope attach`, modules the program loads later
 * must have their allocator entries rewritten too (gotpatch.c): the GOT
 * entries for dlopen lead here, the real dlopen runs, then every module
 * not yet rewritten is.
 *
 * dlopen looks at its caller (its return address): a bare name is searched
 * in the caller's RPATH and RUNPATH, and the caller's namespace is used. So
 * the real dlopen must see the program's caller, not us: it is called with,
 * as return address, a `ret` instruction found in the caller's own code,
 * which returns to us. Under LD_PRELOAD nothing comes here (dlopen is not
 * exported): the dynamic linker sees no new module that needs rewriting.
 */
#include <dlfcn.h>
#include <link.h>

#include "preload/preload.h"

/* void *call_returning_via(fn, file, mode, gadget): fn(file, mode) with
 * gadget, a `ret` instruction, as its return address. */
void *lk_call_returning_via(void *fn, const char *file, int mode, const void *gadget);
__asm__(".text\n"
	".p2align 4\n"
	".type lk_call_returning_via, @function\n"
	".hidden lk_call_returning_via\n"
	"lk_call_returning_via:\n"
	"\tpush %rbp\n"
	"\tmov %rsp, %rbp\n"
	"\tsub $8, %rsp\n"           /* so that fn is entered with rsp = 8 mod 16 */
	"\tlea 1f(%rip), %rax\n"
	"\tpush %rax\n"              /* where the gadget's ret goes */
	"\tpush %rcx\n"              /* fn's return address: the gadget */
	"\tmov %rdi, %rax\n"
	"\tmov %rsi, %rdi\n"
	"\tmov %edx, %esi\n"
	"\tjmp *%rax\n"
	"1:\tleave\n"
	"\tret\n"
	".size lk_call_returning_via, .-lk_call_returning_via\n");

struct gadget_search {
	uintptr_t caller;
	const void *ret;
};

/* A `ret` byte (0xc3) in the executable segment holding the caller. */
static int find_ret(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct gadget_search *g = arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_filesz;
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || g->caller < lo ||
		    g->caller >= hi)
			continue;
		for (const unsigned char *p = (const unsigned char *)g->caller;
		     (uintptr_t)p < hi; p++)
			if (*p == 0xc3) {
				g->ret = p;
				return 1;
			}
		return 1;
	}
	return 0;
}

LK_HIDDEN void *lk_dlopen_hook(const char *file, int mode)
{
	struct gadget_search g = {.caller = (uintptr_t)__builtin_return_address(0)};
	void *real = lk_real.dlopen;
	if (!real)
		return NULL;
	dl_iterate_phdr(find_ret, &g);
	void *h = g.ret ? lk_call_returning_via(real, file, mode, g.ret)
			: ((void *(*)(const char *, int))real)(file, mode);
	if (h && atomic_load(&lk_state) == LK_READY)
		lk_gotpatch_apply();
	return h;
}
