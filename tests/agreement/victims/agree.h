/*
 * agree.h - what the agreement victims share. tests/agreement/run.sh
 * builds each victim twice from the same source: plainly (run under
 * leakscope and under valgrind) and with clang -fsanitize=leak
 * -DAGREE_LSAN (run as a LeakSanitizer program). So that one source says
 * the same thing to the three checkers:
 *
 *   agree_ignore(p)          "p is kept on purpose": leakscope_ignore() and
 *                            __lsan_ignore_object() (valgrind has none)
 *   agree_disable/_enable()  this thread's allocations in between are not
 *                            checked: leakscope's and LSan's disablers
 *   agree_register_root(p,n) scan [p, p+n) as a root, and _unregister_root
 *   agree_check()            a leak check now, while the program runs:
 *                            `leakscope check` of this process (the runner
 *                            says where with AGREE_LEAKSCOPE and
 *                            AGREE_CHECK_OUT), VALGRIND_DO_LEAK_CHECK under
 *                            valgrind, __lsan_do_recoverable_leak_check()
 *                            under LSan. A victim that checks frees what
 *                            it checked before it ends, so that the check
 *                            report and the exit report add up to the
 *                            victim's expectation for every checker.
 *   agree_wipe_stack()       zero the stack below the caller, so that dead
 *                            frames keep no copy of a pointer that the
 *                            victim wants gone whatever the optimization
 *   agree_clear_scratch()    zero the caller-saved general registers
 *   agree_fail(why)          a victim that cannot set its situation up
 *                            aborts (134: no checker's 23 can hide it)
 *   agree_escape(p)          the compiler must assume p is used: a block
 *                            that a victim loses on purpose is allocated at
 *                            -O2 too (clang drops a malloc it sees unused)
 *
 * Nothing here needs leakscope, valgrind or LSan to be present: without
 * them every call does nothing (agree_check() included).
 */
#ifndef AGREE_H
#define AGREE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leakscope.h"

#ifdef AGREE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define AGREE_VALGRIND 1
#endif
#endif

extern char **environ;

static inline __attribute__((noreturn, unused)) void agree_fail(const char *why)
{
	fprintf(stderr, "victim: cannot set up: %s\n", why);
	abort();
}

#define agree_escape(p) __asm__ volatile("" : : "r"(p) : "memory")

static inline void agree_ignore(const void *p)
{
	leakscope_ignore(p);
#ifdef AGREE_LSAN
	__lsan_ignore_object(p);
#endif
}

static inline void agree_disable(void)
{
	leakscope_disable();
#ifdef AGREE_LSAN
	__lsan_disable();
#endif
}

static inline void agree_enable(void)
{
	leakscope_enable();
#ifdef AGREE_LSAN
	__lsan_enable();
#endif
}

static inline void agree_register_root(const void *p, size_t n)
{
	leakscope_register_root(p, n);
#ifdef AGREE_LSAN
	__lsan_register_root_region(p, n);
#endif
}

static inline void agree_unregister_root(const void *p, size_t n)
{
	leakscope_unregister_root(p);
#ifdef AGREE_LSAN
	__lsan_unregister_root_region(p, n);
#endif
	(void)n;
}

/* Runs `$AGREE_LEAKSCOPE check -f json PID > $AGREE_CHECK_OUT` and waits
 * for it: the checked process is this one, stopped whole by leakscope
 * while this thread waits in waitpid(). Returns 0 when a check ran. */
static __attribute__((noinline, unused)) int agree_check(void)
{
#ifdef AGREE_LSAN
	__lsan_do_recoverable_leak_check();
	return 0;
#else
#ifdef AGREE_VALGRIND
	if (RUNNING_ON_VALGRIND) {
		VALGRIND_DO_LEAK_CHECK;
		return 0;
	}
#endif
	const char *ls = getenv("AGREE_LEAKSCOPE");
	const char *out = getenv("AGREE_CHECK_OUT");
	if (!ls || !out || !leakscope_running())
		return -1;
	char pid[24];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	char *argv[] = {(char *)ls, (char *)"check", (char *)"-f", (char *)"json", pid, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	pid_t child;
	int rc = posix_spawn(&child, ls, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int status;
	while (waitpid(child, &status, 0) < 0)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
#endif
}

static __attribute__((noinline, unused)) void agree_wipe_stack(void)
{
	char pad[32768];
	explicit_bzero(pad, sizeof(pad));
	__asm__ volatile("" : : "r"(pad) : "memory");
}

static inline __attribute__((always_inline, unused)) void agree_clear_scratch(void)
{
#if defined(__x86_64__)
	__asm__ volatile("xor %%eax, %%eax\n\txor %%ecx, %%ecx\n\txor %%edx, %%edx\n\t"
			 "xor %%esi, %%esi\n\txor %%edi, %%edi\n\txor %%r8d, %%r8d\n\t"
			 "xor %%r9d, %%r9d\n\txor %%r10d, %%r10d\n\txor %%r11d, %%r11d"
			 : : : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
#endif
}

#endif
