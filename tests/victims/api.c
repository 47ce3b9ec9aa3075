/*
 * api.c - the program API (include/leakscope.h): a block kept on purpose
 * (3,434 bytes), an allocation in a disabled scope (5,656 bytes) that
 * holds the only pointer to a block allocated after it (2,020 bytes: still
 * reachable, its holder being kept on purpose, as with LeakSanitizer's
 * __lsan_disable), and a root region the scan would not see otherwise (an
 * mmap'ed shared arena holding 7,878 bytes). Only the 1212-byte block
 * (real_leak) is lost. Runs unchanged without leakscope.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "leakscope.h"

__attribute__((noinline)) static void kept(void)
{
	void *p = malloc(3434);
	leakscope_ignore(p); /* e.g. a cache freed by the OS at exit */
}

__attribute__((noinline)) static void quiet(void)
{
	leakscope_disable();
	void **holder = malloc(5656);
	leakscope_enable();
	holder[0] = malloc(2020);
}

__attribute__((noinline)) static void rooted(void)
{
	/* shared mappings are not scanned by default */
	void **arena = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	arena[0] = malloc(7878);
	leakscope_register_root(arena, 4096);
}

__attribute__((noinline)) static void real_leak(void)
{
	void *p = malloc(1212);
	memset(p, 0, 1212);
}

int main(void)
{
	kept();
	quiet();
	rooted();
	real_leak();
	volatile char wipe[4096];
	memset((char *)wipe, 0, sizeof(wipe));
	printf("running under leakscope: %d\n", leakscope_running());
	return 0;
}
