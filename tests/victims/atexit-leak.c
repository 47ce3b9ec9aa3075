/*
 * atexit-leak: leaks made after main returned - from an atexit handler
 * (3,333 bytes, late_leak) and from a destructor (3,334 bytes, dtor_leak).
 * They count like any other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *late_block, *dtor_block;

__attribute__((noinline)) static void late_leak(void)
{
	late_block = memset(malloc(3333), 1, 3333);
}

__attribute__((destructor)) static void dtor_leak(void)
{
	dtor_block = memset(malloc(3334), 2, 3334);
}

int main(void)
{
	atexit(late_leak);
	printf("main returns\n");
	return 0;
}
