/*
 * modules.c - the module table of the shared region: every ELF object the
 * dynamic loader has mapped, appended (never removed) at start-up, in the
 * child after fork, and before each dlclose(). The collector thus can
 * symbolize addresses of a library that was dlopen'ed, leaked and unloaded.
 * Objects loaded later by dlopen need no hook: the first new stack with a
 * return address outside every known module triggers a snapshot (new stacks
 * are rare, so this is off the hot path), and dlclose() records them before
 * they go. The collector thus never needs the target's /proc/PID/maps, which
 * is gone once the target died.
 */
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "preload/preload.h"

static int known(const struct lk_module_entry *m, uint32_t n, uint64_t bias, const char *path)
{
	for (uint32_t i = 0; i < n; i++)
		if (m[i].bias == bias && strncmp(m[i].path, path, LK_PATH_MAX - 1) == 0)
			return 1;
	return 0;
}

static int add_one(struct dl_phdr_info *info, size_t size, void *unused)
{
	struct lk_shm_header *h = lk_region.hdr;
	uint32_t n = atomic_load(&h->module_count);
	const char *path = info->dlpi_name ? info->dlpi_name : "";
	if (n >= LK_MODULES_MAX || known(lk_region.modules, n, info->dlpi_addr, path))
		return 0;
	struct lk_module_entry *e = &lk_region.modules[n];
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uint64_t a = info->dlpi_addr + ph->p_vaddr;
		if (a < lo)
			lo = a;
		if (a + ph->p_memsz > hi)
			hi = a + ph->p_memsz;
	}
	if (hi == 0)
		return 0;
	e->bias = info->dlpi_addr;
	e->lo = lo;
	e->hi = hi;
	e->seq = atomic_load(&h->ring_head);
	strncpy(e->path, path, LK_PATH_MAX - 1);
	e->path[LK_PATH_MAX - 1] = 0;
	atomic_store_explicit(&h->module_count, n + 1, memory_order_release);
	return 0;
}

LK_HIDDEN void lk_modules_snapshot(void)
{
	struct lk_shm_header *h = lk_region.hdr;
	if (!h)
		return;
	/* Never wait: a signal handler may interrupt a snapshot in progress;
	 * a concurrent snapshot records the same objects. */
	if (atomic_exchange_explicit(&h->module_lock, 1, memory_order_acquire))
		return;
	dl_iterate_phdr(add_one, NULL);
	atomic_store_explicit(&h->module_lock, 0, memory_order_release);
}

/* The module of the last hit: frames of a stack mostly share a few. */
static _Atomic uint32_t last_hit;

LK_HIDDEN int lk_modules_contain(uint64_t ip)
{
	const struct lk_module_entry *m = lk_region.modules;
	uint32_t n = atomic_load_explicit(&lk_region.hdr->module_count, memory_order_acquire);
	if (n > LK_MODULES_MAX) /* the program overwrote it */
		n = LK_MODULES_MAX;
	uint32_t hint = atomic_load_explicit(&last_hit, memory_order_relaxed);
	if (hint < n && ip >= m[hint].lo && ip < m[hint].hi)
		return 1;
	for (uint32_t i = n; i-- > 0;)
		if (ip >= m[i].lo && ip < m[i].hi) {
			atomic_store_explicit(&last_hit, i, memory_order_relaxed);
			return 1;
		}
	return 0;
}

LK_HIDDEN void lk_modules_cover(const uint64_t *ips, int n)
{
	for (int i = 0; i < n; i++)
		if (!lk_modules_contain(ips[i])) {
			lk_modules_snapshot();
			return;
		}
}

__attribute__((visibility("default"))) int dlclose(void *handle)
{
	if (!lk_real.dlclose)
		lk_real_resolve();
	if (atomic_load(&lk_state) == LK_READY)
		lk_modules_snapshot();
	int rc = lk_real.dlclose(handle);
	lk_unwind_forget();
	return rc;
}

LK_HIDDEN extern __typeof(dlclose) lk_dlclose_here __attribute__((alias("dlclose"), copy(dlclose)));
