/* leak-one: the smallest leak. hello() allocates 1,000 bytes, prints the
 * pointer (so the allocation is kept) and never frees it. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void hello(void)
{
	char *p = malloc(1000); /* LINE:hello-malloc */
	printf("hello %p\n", (void *)p);
}

int main(void)
{
	hello();
	return 0;
}
