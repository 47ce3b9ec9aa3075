/*
 * bootstrap.c - start-up of the interposer: find the real allocator, serve
 * the few allocations dlsym() makes while we look it up, attach to the
 * collector, and re-attach in the child after fork().
 *
 * Until the state is LK_READY every wrapper forwards without recording; a
 * block allocated then and freed later is an unmatched free, which the
 * collector ignores.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "preload/preload.h"

LK_HIDDEN struct lk_real lk_real;
LK_HIDDEN _Atomic int lk_state = LK_UNINIT;
LK_HIDDEN int lk_max_frames = 64;

/* Bootstrap pool: dlsym may call calloc before we know the real one. */
#define POOL_SIZE (64 * 1024)
static _Alignas(16) char pool[POOL_SIZE];
static _Atomic size_t pool_used;

LK_HIDDEN int lk_bootstrap_owns(const void *p)
{
	return (const char *)p >= pool && (const char *)p < pool + POOL_SIZE;
}

LK_HIDDEN void *lk_bootstrap_alloc(size_t n)
{
	size_t need = ((n + 15) & ~(size_t)15) + 16;
	size_t at = atomic_fetch_add(&pool_used, need);
	if (at + need > POOL_SIZE)
		return NULL;
	*(size_t *)(pool + at) = n;
	return pool + at + 16; /* fresh static memory is already zero */
}

LK_HIDDEN size_t lk_bootstrap_size(const void *p)
{
	return *(const size_t *)((const char *)p - 16);
}

/* glibc's own entry points, for allocators that lack one of them. */
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

static void *next_of(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void resolve_from(void *(*find)(const char *name))
{
	struct lk_real r;
#define NEXT(name) find(#name)
	r.malloc = NEXT(malloc);
	r.free = NEXT(free);
	r.calloc = NEXT(calloc);
	r.realloc = NEXT(realloc);
	r.reallocarray = NEXT(reallocarray);
	r.posix_memalign = NEXT(posix_memalign);
	r.aligned_alloc = NEXT(aligned_alloc);
	r.memalign = NEXT(memalign);
	r.valloc = NEXT(valloc);
	r.pvalloc = NEXT(pvalloc);
	r.usable_size = NEXT(malloc_usable_size);
	r.dlopen = NEXT(dlopen);
	r.dlclose = NEXT(dlclose);
	r.execve = NEXT(execve);
	r.execvpe = NEXT(execvpe);
	r.ptrace = NEXT(ptrace);
	r.exit = NEXT(exit);
	r.libc_start_main = NEXT(__libc_start_main);
#undef NEXT
	if (!r.memalign)
		r.memalign = __libc_memalign;
	if (!r.valloc)
		r.valloc = __libc_valloc;
	if (!r.pvalloc)
		r.pvalloc = __libc_pvalloc;
	/* publish malloc last: the wrappers test it to know we are done */
	void *(*m)(size_t) = r.malloc;
	r.malloc = NULL;
	lk_real = r;
	__atomic_store_n(&lk_real.malloc, m, __ATOMIC_RELEASE);
}

LK_HIDDEN void lk_real_resolve(void)
{
	static _Atomic int resolving;
	if (atomic_exchange(&resolving, 1))
		return; /* a nested call from dlsym: the pool answers it */
	resolve_from(next_of);
}

LK_HIDDEN void lk_real_resolve_with(void *(*find)(const char *name))
{
	resolve_from(find);
}

static void atfork_child(void)
{
	if (lk_tls_allocated()) {   /* else there is nothing to forget */
		lk_ring_forget_thread();
		lk_stack_forget_thread();
	}
	if (atomic_load(&lk_state) != LK_READY)
		return;
	struct lk_region parent = lk_region;
	if (lk_region_attach(&parent, 0) != 0)
		atomic_store(&lk_state, LK_OFF);
}

static char socket_path[108]; /* sizeof(sun_path) */

LK_HIDDEN const char *lk_collector_socket(void)
{
	return socket_path[0] ? socket_path : NULL;
}

LK_HIDDEN int lk_begin(const char *socket, unsigned flags)
{
	static _Atomic int atfork_set;
	size_t n = strlen(socket);
	if (n >= sizeof(socket_path) || !lk_real.malloc)
		goto off;
	memcpy(socket_path, socket, n + 1);
	lk_stack_init();
	if (lk_region_attach(NULL, flags) != 0)
		goto off;
	if (!atomic_exchange(&atfork_set, 1))
		pthread_atfork(NULL, NULL, atfork_child);
	atomic_store(&lk_state, LK_READY);
	return 0;
off:
	atomic_store(&lk_state, LK_OFF);
	return -1;
}

/* Runs as a constructor, or earlier from the first allocation: libraries
 * the program needs are initialized before us, and their constructors may
 * allocate (and leak). */
__attribute__((constructor(101))) LK_HIDDEN void lk_start(void)
{
	int expect = LK_UNINIT;
	if (!atomic_compare_exchange_strong(&lk_state, &expect, LK_STARTING))
		return;
	if (!lk_real.malloc)
		lk_real_resolve();
	const char *frames = getenv(LK_ENV_FRAMES);
	if (frames) {
		int n = atoi(frames);
		lk_max_frames = n < 1 ? 1 : n > LK_MAX_FRAMES ? LK_MAX_FRAMES : n;
	}
	const char *socket = getenv(LK_ENV_SOCKET);
	if (socket)
		lk_begin(socket, 0);
	else
		atomic_store(&lk_state, LK_OFF);
}
