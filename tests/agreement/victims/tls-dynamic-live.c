/*
 * tls-dynamic-live.c - a dlopen'ed library's __thread array (1 MiB:
 * dynamic TLS, allocated by the loader when the main thread first uses
 * it) holds a block at the end: still reachable. Mirrors LSan's
 * Linux/use_tls_dynamic.
 *
 * A correct checker: nothing lost; the 1,340-byte block still reachable;
 * exit status 0.
 *
 * DSO: tls-dynamic-lib.c
 * EXPECT: still-reachable >=1340 >=1; rc 0
 */
#include <dlfcn.h>

#include "agree.h"

__attribute__((noinline)) static int keep(const char *self)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s-lib.so", self);
	void *lib = dlopen(path, RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "%s\n", dlerror());
		agree_fail(__func__);
	}
	void **(*keep_in_tls)(void *) = (void **(*)(void *))dlsym(lib, "keep_in_tls");
	if (!keep_in_tls)
		agree_fail(__func__);
	keep_in_tls(malloc(1340));
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	if (keep(argv[0]))
		agree_fail(__func__);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
