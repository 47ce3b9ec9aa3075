/*
 * unreadable-pages.c - pages the program made unreadable with mprotect(),
 * inside a reachable 10 MiB heap block and inside a global array, must
 * not stop the scan (nor crash the checker): what the readable parts hold
 * still counts. The big block's first word points to a 4,321-byte block;
 * a 777-byte block is lost. Mirrors valgrind's leak-segv-jmp and LSan's
 * Linux/leak_check_segv (whose expectation is LSan's own fatal error).
 *
 * A correct checker: definitely lost 777 bytes in 1 block; the 10 MiB
 * block and the 4,321-byte block still reachable; exit status 23.
 *
 * EXPECT: definitely-lost 777 1; still-reachable >=10490081 >=2; rc 23
 */
#include <stdint.h>
#include <sys/mman.h>

#include "agree.h"

#define BIG (10u << 20)

char *big;
char global_area[1 << 20] __attribute__((aligned(4096)));

__attribute__((noinline)) static void protect(void)
{
	long page = sysconf(_SC_PAGESIZE);
	big = malloc(BIG);
	memset(big, 0, BIG);
	void *kept = malloc(4321);
	memcpy(big, &kept, sizeof(kept));
	uintptr_t inside = ((uintptr_t)big + BIG / 2) & ~(uintptr_t)(page - 1);
	mprotect((void *)inside, 4 * page, PROT_NONE);
	mprotect(global_area + 2 * page, 4 * page, PROT_NONE);
	void *lost = malloc(777);
	agree_escape(lost);
}

int main(void)
{
	protect();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
