/*
 * tls_guard.c - thread-locals that may not exist yet. The interposer an
 * attach loads (libleakscope-attach.so, built with LK_ATTACH_BUILD) has
 * dynamic TLS: a thread's first touch of it makes the dynamic linker
 * allocate the block, with the program's malloc - which, in an executable
 * whose PLT stub is malloc's canonical address, is ours again through the
 * GOT entry the attach rewrote. So before any thread-local, a wrapper asks
 * whether this thread's block exists (its DTV entry, glibc's x86-64
 * layout); when not, the first caller of the thread touches it while it
 * is listed here by its thread pointer, and the nested call the
 * allocation makes goes straight to the real allocator, unrecorded.
 */
#include <link.h>

#include "preload/preload.h"

LK_HIDDEN size_t lk_tls_modid;

#define INITIALIZING 64

static _Atomic uintptr_t initializing[INITIALIZING];

static uintptr_t thread_self(void)
{
	uintptr_t self;
	__asm__("mov %%fs:16, %0" : "=r"(self));
	return self;
}

LK_HIDDEN int lk_tls_first_touch(void)
{
	uintptr_t self = thread_self();
	for (int i = 0; i < INITIALIZING; i++)
		if (atomic_load_explicit(&initializing[i], memory_order_relaxed) == self)
			return 0;   /* the allocation of our block, from its first touch */
	for (int i = 0; i < INITIALIZING; i++) {
		uintptr_t none = 0;
		if (atomic_compare_exchange_strong(&initializing[i], &none, self)) {
			(void)*(volatile int *)&lk_busy;
			atomic_store(&initializing[i], 0);
			return 1;
		}
	}
	return 0;
}

static int find_modid(struct dl_phdr_info *info, size_t size, void *base)
{
	(void)size;
	if (info->dlpi_addr != (uintptr_t)base)
		return 0;
	lk_tls_modid = info->dlpi_tls_modid;
	return 1;
}

LK_HIDDEN void lk_tls_guard_init(void)
{
	Dl_info di;
	if (dladdr((void *)lk_tls_guard_init, &di) && di.dli_fbase)
		dl_iterate_phdr(find_modid, di.dli_fbase);
}
