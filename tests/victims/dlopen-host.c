/* dlopen-host LIB: dlopen LIB, call its dl_leak_fn(), dlclose it, return 0.
 * The 10,010 bytes dl_leak_fn leaks outlive the library. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h, *(*fn)(void);

	if (argc < 2 || !(h = dlopen(argv[1], RTLD_NOW))) {
		fprintf(stderr, "dlopen-host: %s\n", dlerror());
		return 2;
	}
	fn = (void *(*)(void))dlsym(h, "dl_leak_fn");
	if (!fn)
		return 2;
	printf("dl_leak_fn returned %p\n", fn());
	if (dlclose(h) != 0)
		return 2;
	return 0;
}
