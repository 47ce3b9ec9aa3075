/* cgo-goroutines: leak_sized(k) leaks 2,000 + k bytes. */
#include <stdlib.h>
#include <string.h>
#include "leak.h"

void *leak_sized(int k)
{
	char *p = malloc(2000 + k); /* LINE:goroutine-malloc */
	memset(p, k, 2000 + k);
	return p;
}
