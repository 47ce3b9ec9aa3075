/*
 * own-malloc: the executable defines malloc and free itself (a bump
 * allocator), so every call goes there, not to any interposer; it "leaks"
 * 3 blocks. leakscope cannot see them: its report must say so rather than
 * "no leaks, 0 allocations".
 */
#include <stddef.h>
#include <stdio.h>

static char arena[1 << 20];
static size_t used;

void *malloc(size_t n)
{
	void *p = arena + used;
	used += (n + 15) & ~(size_t)15;
	return used <= sizeof(arena) ? p : NULL;
}

void free(void *p)
{
	(void)p;
}

void *calloc(size_t n, size_t m)
{
	return malloc(n * m); /* the arena is zero */
}

void *realloc(void *p, size_t n)
{
	(void)p;
	return malloc(n);
}

int main(void)
{
	for (int i = 0; i < 3; i++)
		printf("%p\n", malloc(100));
	return 0;
}
