/* dlleak: a shared library, dlopen'ed by dlopen-host. dl_leak_fn() leaks
 * 10,010 bytes and frees another block; the library's constructor, run
 * inside dlopen(), leaks 10,030 bytes from dl_ctor_alloc(). */
#include <stdlib.h>
#include <string.h>

void *dl_leak_fn(void)
{
	char *p = malloc(10010); /* LINE:dl-malloc */
	memset(p, 5, 10010);
	free(malloc(10020));
	return p;
}

void *dlleak_ctor_block;

__attribute__((noinline)) static void *dl_ctor_alloc(void)
{
	char *p = malloc(10030); /* LINE:dl-ctor-malloc */
	memset(p, 6, 10030);
	return p;
}

__attribute__((constructor)) static void dl_ctor(void)
{
	dlleak_ctor_block = dl_ctor_alloc();
}
