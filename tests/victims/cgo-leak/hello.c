/* cgo-leak: hello() allocates 1,000 bytes, prints the pointer and leaks it. */
#include <stdio.h>
#include <stdlib.h>
#include "hello.h"

void hello(void)
{
	char *p = malloc(1000); /* LINE:cgo-malloc */
	printf("leaking %p\n", (void *)p);
	fflush(stdout);
}
