/*
 * no_dlopen.c - the command loads no shared library at run time.
 *
 * It is linked statically (Makefile: no dynamic loader to run at each
 * start), and a static program cannot host a shared library, which would
 * bring a second C library with it. The one caller is libdw's debuginfod
 * client, which would load libdebuginfod when a debug file is not found
 * locally; the link sends dlopen() here (-Wl,--wrap=dlopen), so debug
 * files come from the local search only (README, "symbolized").
 */
#include <stddef.h>

void *__wrap_dlopen(const char *file, int mode);

void *__wrap_dlopen(const char *file, int mode)
{
	(void)file;
	(void)mode;
	return NULL;
}
