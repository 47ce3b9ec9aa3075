/*
 * attach.c - the interposer in a process that was running before leakscope
 * came: `leakscope attach` makes the process dlopen this library (with
 * RTLD_LOCAL: nothing binds to us by name) and call
 * leakscope_attached_start(), on one of the program's threads, while the
 * others run on.
 *
 * Start finds the real allocator (the first definition in the process:
 * we were loaded last), announces a region to the collector at socket like
 * a program started under leakscope, and only then rewrites the GOT
 * entries that lead to the allocator (gotpatch.c). A detach, from outside
 * with every thread stopped, writes the entries back and our state off;
 * the library stays loaded (a thread may still be in one of our
 * functions), and a later attach reuses it.
 */
#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>

#include "preload/preload.h"

#define EXPORT __attribute__((visibility("default")))

/* Returns the number of GOT entries rewritten (> 0), or a negative code:
 * -1 already recording, -2 no real allocator, -3 no collector, -4 nothing
 * to rewrite. */
/* The definition of name the process uses: the first in its global
 * scope, but not an executable's canonical PLT stub (an undefined symbol
 * with a value, when it takes the function's address): that stub jumps
 * through the GOT entry we rewrite, back to us; the C library's then. */
static void *definition_of(const char *name)
{
	void *p = dlsym(RTLD_DEFAULT, name);
	Dl_info di;
	const ElfW(Sym) *sym = NULL;
	if (p && dladdr1(p, &di, (void **)&sym, RTLD_DL_SYMENT) && sym &&
	    sym->st_shndx == SHN_UNDEF) {
		void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
		p = libc ? dlsym(libc, name) : NULL;
		if (libc)
			dlclose(libc);
	}
	return p;
}

EXPORT int leakscope_attached_start(const char *socket, int frames)
{
	int state = atomic_load(&lk_state);
	if (state == LK_READY || state == LK_STARTING)
		return -1;
	atomic_store(&lk_state, LK_STARTING);
	lk_real_resolve_with(definition_of);
	if (!lk_real.malloc || lk_real.malloc == lk_malloc_here) {
		atomic_store(&lk_state, LK_OFF);
		return -2;
	}
	lk_tls_guard_init();
	lk_max_frames = frames < 1 ? 1 : frames > LK_MAX_FRAMES ? LK_MAX_FRAMES : frames;
	/* a detach left the previous region to us: no thread writes to it now */
	if (lk_region.hdr)
		munmap(lk_region.hdr, lk_shm_total_size());
	memset(&lk_region, 0, sizeof(lk_region));
	lk_gotpatch_forget();
	if (lk_begin(socket, LK_SHM_ATTACHED) != 0)
		return -3;
	atomic_store(&lk_region.hdr->attach_state, (uint64_t)(uintptr_t)&lk_state);
	size_t n = lk_gotpatch_apply();
	if (n == 0) {
		atomic_store(&lk_state, LK_OFF);
		return -4;
	}
	return (int)n;
}
