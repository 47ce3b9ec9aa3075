/* tinyalloc.c - another allocator, to be preloaded: malloc, free, calloc
 * and realloc on memory of its own (mmap, a size word before each block,
 * nothing ever reused). leakscope check must refuse such a process. */
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

static char *next, *end;

void *malloc(size_t size)
{
	size_t need = (size + 16 + 15) & ~(size_t)15;
	if (!next || (size_t)(end - next) < need) {
		size_t len = need > (1 << 20) ? need : (1 << 20);
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		next = p;
		end = p + len;
	}
	char *b = next;
	next += need;
	*(size_t *)b = size;
	return b + 16;
}

void free(void *p)
{
	(void)p;
}

void *calloc(size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	void *p = malloc(n * size);
	return p ? memset(p, 0, n * size) : NULL;
}

void *realloc(void *p, size_t size)
{
	void *q = malloc(size);
	if (p && q) {
		size_t old = *(size_t *)((char *)p - 16);
		memcpy(q, p, old < size ? old : size);
	}
	return q;
}
