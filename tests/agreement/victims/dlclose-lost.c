/*
 * dlclose-lost.c - twice, a library is dlopen'ed, gives a 1-byte block,
 * and is dlclose'd; the blocks are then lost. Their allocation stacks name
 * code that is no longer mapped: they are reported all the same. Mirrors
 * valgrind's linux/dlclose_leak (without its invalid read).
 *
 * A correct checker: definitely lost 2 bytes in 2 blocks; exit status 23.
 *
 * DSO: dlclose-lost-lib.c
 * EXPECT: definitely-lost 2 2; rc 23
 */
#include <dlfcn.h>

#include "agree.h"

__attribute__((noinline)) static int take_one(const char *path)
{
	void *lib = dlopen(path, RTLD_NOW);
	if (!lib)
		agree_fail(__func__);
	void *(*one_byte)(void) = (void *(*)(void))dlsym(lib, "one_byte");
	if (!one_byte)
		agree_fail(__func__);
	char *p = one_byte();
	p[0] = 1;
	agree_escape(p);
	return dlclose(lib);
}

int main(int argc, char **argv)
{
	char path[4096];
	(void)argc;
	snprintf(path, sizeof(path), "%s-lib.so", argv[0]);
	for (int i = 0; i < 2; i++)
		if (take_one(path))
			agree_fail(__func__);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
