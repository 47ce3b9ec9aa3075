/* ctorlib: a shared library whose constructor leaks 12,001 bytes
 * (lib_ctor_leak) before the program's main runs. ctor-leak links it. */
#include <stdlib.h>
#include <string.h>

void *ctorlib_block;

__attribute__((noinline)) static void *lib_ctor_alloc(void)
{
	char *p = malloc(12001); /* LINE:lib-ctor-malloc */
	memset(p, 6, 12001);
	return p;
}

__attribute__((constructor)) static void lib_ctor_leak(void)
{
	ctorlib_block = lib_ctor_alloc();
	free(malloc(12011));
}
