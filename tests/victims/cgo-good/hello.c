/* cgo-good: hello() allocates 1,000 bytes, prints the pointer, frees it. */
#include <stdio.h>
#include <stdlib.h>
#include "hello.h"

void hello(void)
{
	char *p = malloc(1000);
	printf("calling free() ... %p\n", (void *)p);
	fflush(stdout);
	free(p);
}
