/*
 * arena-next-to-chunk.c - an interpreter-like allocator (pymalloc's arenas)
 * next to glibc's heap: the program takes a 1 MiB block from malloc
 * (glibc maps it on its own), maps an anonymous arena of its own right
 * below (or above) that mapping - the kernel may merge the two into one
 * line of /proc/PID/maps - and keeps the only pointer to a small malloc
 * block in its arena. The 1 MiB block is then lost. The arena is the
 * program's memory whatever line it shares: the small block is reachable.
 * The lost block is not (its contents are no root). Mirrors valgrind's
 * and LSan's root-set cases (pointer-trace, register_root_region) for
 * memory a program maps itself.
 *
 * A correct checker: definitely lost 1,048,576 bytes in 1 block; the
 * 48-byte block still reachable; exit status 23.
 *
 * EXPECT: definitely-lost 1048576 1; still-reachable >=48 >=1; rc 23
 */
#include <stdint.h>
#include <sys/mman.h>

#include "agree.h"

#define BIG (1u << 20)
#define ARENA (256u << 10)

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static void **arena_at(uintptr_t where)
{
	void *m = mmap((void *)where, ARENA, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if ((uintptr_t)m != where) {
		munmap(m, ARENA);
		return NULL;
	}
	return m;
}

/* 1 when one line of /proc/self/maps covers [from, to) */
static int one_line(uintptr_t from, uintptr_t to)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	int found = 0;
	char line[512];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= from && to <= hi)
			found = 1;
	if (f)
		fclose(f);
	return found;
}

__attribute__((noinline)) static void build(void)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	char *big = malloc(BIG);
	memset(big, 0, 64);
	uintptr_t start = ((uintptr_t)big - 2 * sizeof(size_t)) & ~(page - 1);
	uintptr_t end = ((uintptr_t)big + BIG + page - 1) & ~(page - 1);
	void **arena = arena_at(start - ARENA);
	uintptr_t from = start - ARENA, to = end;
	if (!arena) {
		arena = arena_at(end);
		from = start;
		to = end + ARENA;
	}
	if (!arena) { /* under another allocator: the truth is the same */
		arena = mmap(NULL, ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (arena == MAP_FAILED)
			agree_fail("mmap");
		from = to = (uintptr_t)arena;
	}
	arena[100] = malloc(48);
	printf("arena and block %s\n", from != to && one_line(from, to) ? "share one maps line" : "are apart");
	agree_escape(big);
}

int main(void)
{
	build();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
