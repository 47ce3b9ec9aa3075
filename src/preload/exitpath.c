/*
 * exitpath.c - where the exit path begins. exit() runs atexit handlers and
 * destructors on the stack of the thread that called it, below its
 * caller's frames; when the process then stops at its end, the stack below
 * that point holds only their dead frames, whose stale pointers would make
 * lost blocks look reachable. So the interposer notes, in the region, the
 * thread and stack pointer at which exit() was entered, or at which main()
 * returned (glibc then calls exit() from __libc_start_call_main, which no
 * interposer sees: main is wrapped through __libc_start_main). The scan
 * reads that thread's stack from there up (collector/scan.c), as
 * LeakSanitizer does since its exit_atexit_stale_stack test.
 *
 * The other end of that stack has stale words too: the dynamic linker's
 * start-up ran on it before the program's _start, and its dead frames hold
 * pointers into the mapping of /etc/ld.so.cache, unmapped since, whose
 * addresses a later mmap (a large malloc block) may take. The frames of
 * __libc_start_main and of main are laid over them, and a slot they never
 * write would keep such a word for the scan to take as a reference. So
 * the wrapper of __libc_start_main zeroes the dead stack below it first.
 */
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "preload/preload.h"

#define EXPORT __attribute__((visibility("default")))

/* The caller's stack pointer: our frame (built with frame pointers) is
 * the saved %rbp and the return address below it. */
#define CALLER_SP() ((uint64_t)(uintptr_t)__builtin_frame_address(0) + 16)

static void note_exit(uint64_t sp)
{
	if (atomic_load(&lk_state) != LK_READY || (uint32_t)getpid() != lk_region.hdr->pid)
		return;
	uint32_t expect = 0;
	/* the first exit counts: a second exit() from a handler is below it */
	if (atomic_compare_exchange_strong(&lk_region.hdr->exit_tid, &expect,
					   (uint32_t)syscall(SYS_gettid)))
		atomic_store(&lk_region.hdr->exit_sp, sp);
}

EXPORT __attribute__((noreturn, noinline)) void exit(int status)
{
	if (!lk_real.exit)
		lk_real_resolve();
	note_exit(CALLER_SP());
	lk_real.exit(status);
	__builtin_unreachable();
}

LK_HIDDEN extern __typeof(exit) lk_exit_here __attribute__((alias("exit"), noreturn, nothrow));

typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static __attribute__((noinline)) int main_then_note(int argc, char **argv, char **envp)
{
	int rc = real_main(argc, argv, envp);
	note_exit(CALLER_SP());
	return rc;
}

#define STARTUP_SCRUB (64 * 1024)  /* deeper than the dynamic linker's start-up */
#define STACK_MARGIN (64 * 1024)   /* left to the program under a small stack limit */

static __attribute__((noinline)) void zero_below(size_t n)
{
	explicit_bzero(__builtin_alloca(n), n);
}

/* Zero the dead stack below the caller, within the stack's limit. */
static void scrub_startup_stack(const void *stack_end)
{
	size_t used = (size_t)((const char *)stack_end - (const char *)__builtin_frame_address(0));
	struct rlimit r;
	if (getrlimit(RLIMIT_STACK, &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
	    r.rlim_cur < used + STARTUP_SCRUB + STACK_MARGIN)
		return;
	zero_below(STARTUP_SCRUB);
}

EXPORT int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void),
			     void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
	if (!lk_real.libc_start_main)
		lk_real_resolve();
	scrub_startup_stack(stack_end);
	real_main = main;
	return lk_real.libc_start_main(main_then_note, argc, argv, init, fini, rtld_fini,
				       stack_end);
}
