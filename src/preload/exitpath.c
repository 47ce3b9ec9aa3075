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
 */
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

typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static __attribute__((noinline)) int main_then_note(int argc, char **argv, char **envp)
{
	int rc = real_main(argc, argv, envp);
	note_exit(CALLER_SP());
	return rc;
}

EXPORT int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void),
			     void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
	if (!lk_real.libc_start_main)
		lk_real_resolve();
	real_main = main;
	return lk_real.libc_start_main(main_then_note, argc, argv, init, fini, rtld_fini,
				       stack_end);
}
