/*
 * preload.h - internals of libleakscope.so, the interposer loaded into the
 * target with LD_PRELOAD. Nothing here may call malloc, take a lock on the
 * hot path, or print: the target must not notice us beyond speed.
 */
#ifndef LK_PRELOAD_H
#define LK_PRELOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/shm.h"

#define LK_HIDDEN __attribute__((visibility("hidden")))

enum lk_state { LK_UNINIT, LK_STARTING, LK_READY, LK_OFF };
_Static_assert(LK_OFF == LK_STATE_OFF, "a detach writes LK_STATE_OFF (common/shm.h)");

/* The allocator we forward to (the next definition after ours). */
struct lk_real {
	void *(*malloc)(size_t);
	void (*free)(void *);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void *(*reallocarray)(void *, size_t, size_t);
	int (*posix_memalign)(void **, size_t, size_t);
	void *(*aligned_alloc)(size_t, size_t);
	void *(*memalign)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*pvalloc)(size_t);
	size_t (*usable_size)(void *);
	void *dlopen;   /* called through dlopen_hook.c's trampoline */
	int (*dlclose)(void *);
	int (*execve)(const char *, char *const[], char *const[]);
	int (*execvpe)(const char *, char *const[], char *const[]);
	long (*ptrace)(int, ...);
	void (*exit)(int);
	int (*libc_start_main)(int (*)(int, char **, char **), int, char **, void (*)(void),
			       void (*)(void), void (*)(void), void *);
};

/* One process's view of its shared region. */
struct lk_region {
	struct lk_shm_header *hdr;
	struct lk_slot *ring;
	_Atomic uint32_t *buckets;
	struct lk_stack_entry *entries;
	uint64_t *frames;
	struct lk_module_entry *modules;
	struct lk_mark_slot *marks;
};

extern LK_HIDDEN struct lk_real lk_real;
extern LK_HIDDEN struct lk_region lk_region;
/* Changes with each region made (stacks.c: a thread's cached stack ids
 * are of one region). */
extern LK_HIDDEN _Atomic uint64_t lk_region_gen;
extern LK_HIDDEN _Atomic int lk_state;
extern LK_HIDDEN int lk_max_frames;
extern LK_HIDDEN __thread int lk_busy;
extern LK_HIDDEN __thread int lk_disabled; /* leakscope_disable() depth */

/* tls_guard.c: whether this thread may touch our thread-locals now (see
 * there); always under LD_PRELOAD, where they are static TLS. */
extern LK_HIDDEN size_t lk_tls_modid;
LK_HIDDEN int lk_tls_first_touch(void);
LK_HIDDEN void lk_tls_guard_init(void);

static inline int lk_tls_allocated(void)
{
#ifdef LK_ATTACH_BUILD
	const uintptr_t *dtv;
	__asm__("mov %%fs:8, %0" : "=r"(dtv));
	size_t id = lk_tls_modid;
	/* glibc's dtv: [-1] its length, then {val, to_free} per module */
	return dtv && id && id <= dtv[-2] && dtv[2 * id] != (uintptr_t)-1;
#else
	return 1;
#endif
}

static inline int lk_tls_ready(void)
{
	return __builtin_expect(lk_tls_allocated(), 1) || lk_tls_first_touch();
}

/* bootstrap.c */
LK_HIDDEN void lk_start(void);
LK_HIDDEN void lk_real_resolve(void);
/* The same with find (an attach loaded us last: no RTLD_NEXT). */
LK_HIDDEN void lk_real_resolve_with(void *(*find)(const char *name));
/* Start recording to the collector at socket: 0, or -1 (state LK_OFF). */
LK_HIDDEN int lk_begin(const char *socket, unsigned flags);
LK_HIDDEN int lk_bootstrap_owns(const void *p);
LK_HIDDEN void *lk_bootstrap_alloc(size_t n);
LK_HIDDEN size_t lk_bootstrap_size(const void *p);

/* Our entry points, by addresses no earlier definition replaces (hooks.c,
 * modules.c, exitpath.c, exitcall.c): what gotpatch.c writes. */
LK_HIDDEN void *lk_malloc_here(size_t n);
LK_HIDDEN void lk_free_here(void *p);
LK_HIDDEN void *lk_calloc_here(size_t n, size_t m);
LK_HIDDEN void *lk_realloc_here(void *p, size_t n);
LK_HIDDEN void *lk_reallocarray_here(void *p, size_t n, size_t m);
LK_HIDDEN int lk_posix_memalign_here(void **out, size_t align, size_t n);
LK_HIDDEN void *lk_aligned_alloc_here(size_t align, size_t n);
LK_HIDDEN void *lk_memalign_here(size_t align, size_t n);
LK_HIDDEN void *lk_valloc_here(size_t n);
LK_HIDDEN void *lk_pvalloc_here(size_t n);
LK_HIDDEN int lk_dlclose_here(void *handle);
LK_HIDDEN __attribute__((noreturn)) void lk_exit_here(int status);
LK_HIDDEN __attribute__((noreturn)) void lk_exit_now_here(int status);

/* gotpatch.c: after an attach, rewrite every loaded module's GOT entries
 * for the functions above (and dlopen) to ours, and say where they are in
 * the region's header; how many were rewritten. A detach puts them back
 * from outside; forget them then. */
LK_HIDDEN size_t lk_gotpatch_apply(void);
LK_HIDDEN void lk_gotpatch_forget(void);

/* dlopen_hook.c: the dlopen of an attached process; modules it loads are
 * rewritten too. */
LK_HIDDEN void *lk_dlopen_hook(const char *file, int mode);

/* attach.c: the socket of the collector we report to (from the
 * environment, or given by an attach); NULL before start. */
LK_HIDDEN const char *lk_collector_socket(void);

/* region.c: create, map and announce this process's region; flags:
 * LK_SHM_* for its header. */
LK_HIDDEN int lk_region_attach(const struct lk_region *parent, unsigned flags);

/* socket.c: connect to the collector's socket at path, send len bytes of
 * msg with n_fds (up to 2) descriptors, return its one-byte answer, or -1;
 * the collector's pid in *peer when peer is not NULL. n_fds may be 0. */
LK_HIDDEN int lk_socket_call(const char *path, const void *msg, size_t len, const int *fds,
			     size_t n_fds, pid_t *peer);

/* exitcall.c: the collector answered the hello with ack (LK_ACK_*) on the
 * socket at path; LK_ACK_SELF_SCAN asks for the call-back at exit (as does
 * the region's exit_call, later). The socket's path, or NULL. */
LK_HIDDEN void lk_exitcall_arm(const char *path, int ack);
LK_HIDDEN const char *lk_exitcall_socket(void);

/* release.c: ask the collector to let pid go (enum lk_release_reason); 1
 * if executing path would raise this process's privileges. */
LK_HIDDEN void lk_release(pid_t pid, unsigned reason, const char *path);
LK_HIDDEN int lk_release_gains_privileges(const char *path);

/* liveness.c: the collector's pid at the acknowledgement of our region;
 * whether it is gone since; stop recording and say so once. */
LK_HIDDEN void lk_liveness_remember(pid_t collector);
LK_HIDDEN int lk_liveness_collector_gone(void);
LK_HIDDEN void lk_liveness_stop_recording(void);

/* ring.c: publish one event. */
LK_HIDDEN void lk_ring_emit(unsigned kind, uint64_t addr, uint64_t size, uint32_t stack);
LK_HIDDEN void lk_ring_forget_thread(void);

/* stacks.c: capture the caller's stack and return its id (0 if none). */
LK_HIDDEN uint32_t lk_stack_capture(void);
LK_HIDDEN void lk_stack_init(void);
/* In the child of fork(): the stack ids this thread remembers belong to the
 * parent's table. */
LK_HIDDEN void lk_stack_forget_thread(void);

/* unwind.c: the fast unwinder; -1 means "ask the careful one". */
LK_HIDDEN int lk_unwind_fast(void **ips, int max);
LK_HIDDEN void lk_unwind_init(void);
/* Code was unmapped: drop every thread's cached rules. */
LK_HIDDEN void lk_unwind_forget(void);

/* unwind_full.c: the careful unwinder, from its caller's registers: the
 * number of return addresses stored in ips. */
LK_HIDDEN int lk_unwind_full(void **ips, int max);
/* A frame without CFI whose %rbp is *bp: 1 when that is a frame-pointer
 * chain (Go), with the caller's return address in *ra and its %rbp in *bp
 * (its %rsp is the old *bp + 16); else 0. */
LK_HIDDEN int lk_unwind_fp_step(uintptr_t *bp, uintptr_t *ra);
/* ghcstack.c: ... and when it is not, GHC code: the Haskell call chain
 * from the Haskell stack pointer sp (GHC code's %rbp), as return
 * addresses into ips; the number stored, at most max. */
LK_HIDDEN int lk_ghc_stack(uintptr_t sp, void **ips, int max);
/* Read a word where a read may fault: 0, or -1 (nothing read). */
LK_HIDDEN int lk_safe_word(uintptr_t addr, uintptr_t *out);

/* modules.c: append loaded objects not yet in the module table. */
LK_HIDDEN void lk_modules_snapshot(void);
/* 1 if ip lies in a known module. */
LK_HIDDEN int lk_modules_contain(uint64_t ip);
/* Snapshot if some address of a new stack lies in no known module. */
LK_HIDDEN void lk_modules_cover(const uint64_t *ips, int n);

#endif
