/*
 * root-region-unregistered.c - as root-region-registered.c, but the
 * program does not register its mapping: it keeps the only pointer to a
 * block in anonymous memory it mapped itself, as a program with its own
 * arenas (an interpreter's object allocator) does. That memory is the
 * program's, alive: the block is reachable. LSan scans only what is
 * registered and calls it a leak (its register_root_region "foo" run and
 * use_root_regions=0 run expect that); we do not follow it there.
 *
 * A correct checker: nothing lost; the 1,351-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=1351 >=1; rc 0
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
	region[0] = malloc(1351);
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
