/*
 * root-region-registered.c - the program maps two pages of its own
 * (anonymous, private), makes the second unreadable, registers the
 * mapping as a root (leakscope_register_root, __lsan_register_root_region)
 * and keeps the only pointer to a block in it. The block is reachable,
 * and the unreadable page must not stop the scan. Mirrors LSan's
 * register_root_region (its default run).
 *
 * A correct checker: nothing lost; the 1,350-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=1350 >=1; rc 0
 */
#include <sys/mman.h>

#include "agree.h"

__attribute__((noinline)) static int keep(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void **region = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED || mprotect((char *)region + page, page, PROT_NONE) != 0)
		agree_fail(__func__);
	agree_register_root(region, 2 * page);
	region[0] = malloc(1350);
	return 0;
}

int main(void)
{
	if (keep())
		agree_fail(__func__);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
