/*
 * trap-mappings.c - the scan meets memory it cannot or must not read: a
 * PROT_NONE mapping, a write-only one, a private mapping of an empty file
 * (reading it raises SIGBUS), an address range just unmapped, and a
 * reachable 2 MiB block full of pointers into the low 4 GiB and into
 * those traps. None of it may stop the scan; the one block lost is
 * reported. Mirrors valgrind's pointer-trace.
 *
 * A correct checker: definitely lost 1,000 bytes in 1 block; the 2 MiB
 * block still reachable; exit status 23.
 *
 * EXPECT: definitely-lost 1000 1; still-reachable >=2097152 >=1; rc 23
 */
#include <stdint.h>
#include <sys/mman.h>

#include "agree.h"

#define STEP (1u << 14)
#define WILD ((1ul << 32) / STEP)

uintptr_t *wild;
void *traps[4];

static void *trap(int prot, int flags, int fd)
{
	void *m = mmap(NULL, 2 * STEP, prot, flags, fd, 0);
	return m == MAP_FAILED ? NULL : m;
}

__attribute__((noinline)) static void lay_traps(void)
{
	traps[0] = trap(PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1);
	traps[1] = trap(PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1);
	char name[] = "/tmp/agree-trap-XXXXXX";
	int fd = mkstemp(name);
	if (fd >= 0) {
		unlink(name);
		traps[2] = trap(PROT_READ | PROT_WRITE, MAP_PRIVATE, fd);
	}
	traps[3] = trap(PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	if (traps[3])
		munmap(traps[3], 2 * STEP);

	wild = malloc((WILD + 4) * sizeof(*wild));
	for (uintptr_t i = 0; i < WILD; i++)
		wild[i] = i * STEP;
	for (int i = 0; i < 4; i++)
		wild[WILD + i] = (uintptr_t)traps[i] + 64;
}

__attribute__((noinline)) static void lose(void)
{
	void *p = malloc(1000);
	agree_escape(p);
}

int main(void)
{
	lay_traps();
	lose();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
