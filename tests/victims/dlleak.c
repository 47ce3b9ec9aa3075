/* dlleak: a shared library, dlopen'ed by dlopen-host. dl_leak_fn() leaks
 * 10,010 bytes and frees another block. */
#include <stdlib.h>
#include <string.h>

void *dl_leak_fn(void)
{
	char *p = malloc(10010); /* LINE:dl-malloc */
	memset(p, 5, 10010);
	free(malloc(10020));
	return p;
}
