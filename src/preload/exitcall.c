/*
 * exitcall.c - the exit call-back, for where the collector cannot stop us
 * at our end with ptrace (a container, Yama ptrace_scope 3, a seccomp
 * filter): when exit() runs our destructor, or the program calls _exit()
 * or _Exit(), hand the collector our own /proc/self/mem and
 * /proc/self/maps (a process may always open its own) and wait while it
 * scans us; then stop recording, so that the live blocks it classified stay
 * the ones it knows. Protocol in common/shm.h (struct lk_exit_hello).
 *
 * Runs once per process image, only in the process that announced the
 * region (a vfork child shares our memory but is not us), never allocates.
 * A raw exit_group (Go's os.Exit) or a fatal signal passes no hook: the
 * collector then reports that the process could not be scanned.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "preload/preload.h"

#define EXPORT __attribute__((visibility("default")))

static char socket_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static _Atomic int wanted; /* the collector answered LK_ACK_SELF_SCAN */

LK_HIDDEN void lk_exitcall_arm(const char *path, int ack)
{
	size_t n = strlen(path);
	int fits = n < sizeof(socket_path);
	if (fits)
		memcpy(socket_path, path, n + 1);
	atomic_store(&wanted, fits && ack == LK_ACK_SELF_SCAN);
}

LK_HIDDEN const char *lk_exitcall_socket(void)
{
	return socket_path[0] ? socket_path : NULL;
}

/* The collector asked at the hello, or later, when it let go of ptrace. */
static int called_for(void)
{
	int asked = atomic_exchange(&wanted, 0);
	return (asked || atomic_load(&lk_region.hdr->exit_call)) && socket_path[0];
}

/* Our frame is the lowest the scan reads: the caller spilled its
 * callee-saved registers above it (__builtin_unwind_init). */
static __attribute__((noinline)) void scan_me(void)
{
	struct lk_exit_hello hello = {
		.magic = LK_EXIT_MAGIC, .pid = (uint32_t)getpid(),
		.sp = (uint64_t)(uintptr_t)__builtin_frame_address(0),
	};
	int fds[2] = {open("/proc/self/mem", O_RDONLY | O_CLOEXEC),
		      open("/proc/self/maps", O_RDONLY | O_CLOEXEC)};
	if (fds[0] >= 0 && fds[1] >= 0)
		lk_socket_call(socket_path, &hello, sizeof(hello), fds, 2, NULL);
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static void at_exit(void)
{
	static _Atomic int done;
	if (atomic_load(&lk_state) != LK_READY || (uint32_t)getpid() != lk_region.hdr->pid ||
	    !called_for() || atomic_exchange(&done, 1))
		return;
	int e = errno;
	__builtin_unwind_init();
	scan_me();
	atomic_store(&lk_state, LK_OFF);
	errno = e;
}

/* exit(): the interposer's destructor runs after the program's atexit
 * handlers and destructors (it was loaded before them). */
__attribute__((destructor)) static void at_exit_destructor(void)
{
	at_exit();
}

EXPORT void _exit(int status)
{
	at_exit();
	for (;;)
		syscall(SYS_exit_group, status);
}

EXPORT void _Exit(int status)
{
	_exit(status);
}

LK_HIDDEN extern __typeof(_exit) lk_exit_now_here __attribute__((alias("_exit"), noreturn, nothrow, leaf));
