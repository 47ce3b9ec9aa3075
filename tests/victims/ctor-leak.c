/*
 * ctor-leak: leaks made before main. Linked with ctorlib.so, whose
 * constructor leaks 12,001 bytes; this program's own constructor leaks
 * 12,002 bytes (exe_ctor_leak) and main 12,003 (main_leak).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *ctorlib_block;
static void *exe_block;

__attribute__((constructor)) static void exe_ctor_leak(void)
{
	exe_block = malloc(12002); /* LINE:exe-ctor-malloc */
	memset(exe_block, 7, 12002);
}

__attribute__((noinline)) static void *main_leak(void)
{
	return malloc(12003);
}

int main(void)
{
	printf("%p %p %p\n", ctorlib_block, exe_block, main_leak());
	return 0;
}
