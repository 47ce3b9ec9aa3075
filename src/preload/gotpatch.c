/*
 * gotpatch.c - route a running process's allocator calls to the interposer
 * once `leakscope attach` has loaded it (attach.c): in every loaded module,
 * the GOT entries the dynamic linker bound to malloc and its family (and to
 * the few other functions the interposer wraps: exit, dlopen, dlclose) are
 * rewritten to point at ours, each one remembered in a table the region
 * tells the collector of (common/shm.h): a detach writes them back from
 * outside, while every thread is stopped. C++'s operator new and delete come to us through libstdc++'s own
 * entries for malloc and free, as with LD_PRELOAD.
 *
 * An entry is 8 aligned bytes: another thread calling through it sees the
 * old function or the new one. Entries in a module's RELRO range are made
 * writable for the write and read-only again. No allocation: the record of
 * entries is an anonymous mapping; a spin flag orders the (rare) patchers.
 */
#include <elf.h>
#include <dlfcn.h>
#include <link.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "preload/preload.h"

#define PATCHES_MAX (1u << 16)

static struct lk_got_patch *patches;
static size_t n_patches;
static atomic_flag busy = ATOMIC_FLAG_INIT;

struct target {
	const char *name;
	void *fn;
};

/* Ours, by name; filled by lk_gotpatch_apply (the addresses are only known
 * at run time). */
static struct target targets[] = {
	{"malloc", NULL}, {"free", NULL}, {"calloc", NULL}, {"realloc", NULL},
	{"reallocarray", NULL}, {"posix_memalign", NULL}, {"aligned_alloc", NULL},
	{"memalign", NULL}, {"valloc", NULL}, {"pvalloc", NULL},
	{"exit", NULL}, {"_exit", NULL}, {"_Exit", NULL},
	{"dlopen", NULL}, {"dlclose", NULL},
};
#define N_TARGETS (sizeof(targets) / sizeof(targets[0]))

static void fill_targets(void)
{
	void *fns[N_TARGETS] = {
		lk_malloc_here, lk_free_here, lk_calloc_here, lk_realloc_here,
		lk_reallocarray_here, lk_posix_memalign_here, lk_aligned_alloc_here,
		lk_memalign_here, lk_valloc_here, lk_pvalloc_here,
		lk_exit_here, lk_exit_now_here, lk_exit_now_here,
		lk_dlopen_hook, lk_dlclose_here,
	};
	for (size_t i = 0; i < N_TARGETS; i++)
		targets[i].fn = fns[i];
}

static void *target_of(const char *name)
{
	for (size_t i = 0; i < N_TARGETS; i++)
		if (strcmp(targets[i].name, name) == 0)
			return targets[i].fn;
	return NULL;
}

static int is_ours(uint64_t v)
{
	for (size_t i = 0; i < N_TARGETS; i++)
		if (v == (uint64_t)(uintptr_t)targets[i].fn)
			return 1;
	return 0;
}

static void lock(void)
{
	while (atomic_flag_test_and_set_explicit(&busy, memory_order_acquire))
		sched_yield();
}

static void unlock(void)
{
	atomic_flag_clear_explicit(&busy, memory_order_release);
}

/* What one module's dynamic section tells us. */
struct dyn {
	const ElfW(Sym) *symtab;
	const char *strtab;
	const ElfW(Rela) *rela, *jmprel;
	size_t relasz, jmprelsz;
	uint64_t relro_lo, relro_hi;
};

/* The dynamic linker relocates most d_ptr values in place, not the vDSO's. */
static uint64_t dyn_ptr(const struct dl_phdr_info *info, uint64_t v)
{
	return v < info->dlpi_addr ? v + info->dlpi_addr : v;
}

static int read_dyn(const struct dl_phdr_info *info, struct dyn *d)
{
	const ElfW(Dyn) *dyn = NULL;
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
		if (ph->p_type == PT_GNU_RELRO) {
			d->relro_lo = info->dlpi_addr + ph->p_vaddr;
			d->relro_hi = d->relro_lo + ph->p_memsz;
		}
	}
	if (!dyn)
		return -1;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uint64_t v = dyn->d_un.d_val;
		switch (dyn->d_tag) {
		case DT_SYMTAB: d->symtab = (const void *)dyn_ptr(info, v); break;
		case DT_STRTAB: d->strtab = (const void *)dyn_ptr(info, v); break;
		case DT_RELA: d->rela = (const void *)dyn_ptr(info, v); break;
		case DT_RELASZ: d->relasz = v; break;
		case DT_JMPREL: d->jmprel = (const void *)dyn_ptr(info, v); break;
		case DT_PLTRELSZ: d->jmprelsz = v; break;
		}
	}
	return d->symtab && d->strtab ? 0 : -1;
}

/* Write v at slot, making a RELRO page writable for the moment. */
static int write_slot(const struct dyn *d, uint64_t *slot, uint64_t v)
{
	uint64_t a = (uint64_t)(uintptr_t)slot;
	int relro = a >= d->relro_lo && a < d->relro_hi;
	long page = sysconf(_SC_PAGESIZE);
	void *p = (void *)(uintptr_t)(a & ~(uint64_t)(page - 1));
	if (relro && mprotect(p, (size_t)page, PROT_READ | PROT_WRITE) != 0)
		return -1;
	__atomic_store_n(slot, v, __ATOMIC_RELEASE);
	if (relro)
		mprotect(p, (size_t)page, PROT_READ);
	return 0;
}

static void remember(uint64_t *slot, uint64_t old, uint64_t now)
{
	if (!patches) {
		void *m = mmap(NULL, PATCHES_MAX * sizeof(*patches), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return;
		patches = m;
	}
	if (n_patches < PATCHES_MAX)
		patches[n_patches++] = (struct lk_got_patch){(uintptr_t)slot, old, now};
}

static void patch_relocs(const struct dl_phdr_info *info, const struct dyn *d,
			 const ElfW(Rela) *r, size_t bytes)
{
	for (size_t i = 0; r && i < bytes / sizeof(*r); i++) {
		unsigned type = ELF64_R_TYPE(r[i].r_info);
		unsigned sym = ELF64_R_SYM(r[i].r_info);
		if (!sym || r[i].r_addend != 0 ||
		    (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT && type != R_X86_64_64))
			continue;
		void *fn = target_of(d->strtab + d->symtab[sym].st_name);
		if (!fn)
			continue;
		uint64_t *slot = (uint64_t *)(uintptr_t)(info->dlpi_addr + r[i].r_offset);
		uint64_t old = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
		if (is_ours(old) || (n_patches >= PATCHES_MAX && patches))
			continue;
		if (write_slot(d, slot, (uint64_t)(uintptr_t)fn) == 0)
			remember(slot, old, (uint64_t)(uintptr_t)fn);
	}
}

/* Our own load address: we are the one module left as it is. Known before
 * dl_iterate_phdr, whose lock dladdr must not be asked for inside it. */
static uintptr_t self_base;

static int patch_module(struct dl_phdr_info *info, size_t size, void *unused)
{
	(void)size;
	(void)unused;
	struct dyn d;
	if (!info->dlpi_name || info->dlpi_addr == self_base || read_dyn(info, &d) != 0)
		return 0;
	patch_relocs(info, &d, d.jmprel, d.jmprelsz);
	patch_relocs(info, &d, d.rela, d.relasz);
	return 0;
}

LK_HIDDEN size_t lk_gotpatch_apply(void)
{
	lock();
	if (!targets[0].fn) {
		Dl_info di;
		if (dladdr((void *)fill_targets, &di) && di.dli_fbase)
			self_base = (uintptr_t)di.dli_fbase;
		fill_targets();
	}
	size_t before = n_patches;
	dl_iterate_phdr(patch_module, NULL);
	size_t n = n_patches - before;
	struct lk_shm_header *h = lk_region.hdr;
	if (h) {
		atomic_store(&h->attach_patches, (uint64_t)(uintptr_t)patches);
		atomic_store(&h->attach_n_patches, (uint32_t)n_patches);
	}
	unlock();
	return n;
}

/* A detach wrote the entries back: the next attach starts afresh. */
LK_HIDDEN void lk_gotpatch_forget(void)
{
	lock();
	n_patches = 0;
	unlock();
}
