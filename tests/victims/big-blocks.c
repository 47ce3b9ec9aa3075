/*
 * big-blocks: blocks large enough for glibc to serve them with mmap.
 *   leak_big_malloc    malloc 1 MiB                      1,048,576 bytes
 *   leak_big_calloc    calloc 256 x 1 KiB                  262,144 bytes
 *   leak_big_realloc   realloc 10 bytes -> 2 MiB         2,097,152 bytes
 * and a 4 MiB block, malloc'ed and freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void *leak_big_malloc(void)
{
	char *p = malloc(1 << 20);
	memset(p, 1, 4096);
	return p;
}

__attribute__((noinline)) static void *leak_big_calloc(void)
{
	return calloc(256, 1024);
}

__attribute__((noinline)) static void *leak_big_realloc(void)
{
	char *p = malloc(10);
	return realloc(p, 2 << 20);
}

int main(void)
{
	void *a = leak_big_malloc(), *b = leak_big_calloc(), *c = leak_big_realloc();
	void *d = malloc(4 << 20);

	memset(d, 0, 4096);
	free(d);
	printf("%p %p %p\n", a, b, c);
	return 0;
}
