/*
 * dlclose-lost-lib.c - the library of dlclose-lost.c: hands out a 1-byte
 * block.
 */
#include <stdlib.h>

void *one_byte(void)
{
	return malloc(1);
}
