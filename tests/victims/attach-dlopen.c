/* attach-dlopen.c - a program leakscope does not start that loads a library
 * later, for attach: it prints "ready PID"; on "load" it dlopen()s
 * "dlleak.so" by its bare name (found through its own RUNPATH, $ORIGIN:
 * built with -Wl,-rpath,'$ORIGIN' next to tests/victims/dlleak.c's
 * library), calls its dl_leak_fn() (10,010 bytes leaked, and its
 * constructor's 10,030) and prints "loaded"; on "go" it prints "done". */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void *volatile kept;

int main(void)
{
	char line[64];
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) && strcmp(line, "go\n")) {
		void *h = dlopen("dlleak.so", RTLD_NOW);
		void *(*fn)(void) = h ? (void *(*)(void))dlsym(h, "dl_leak_fn") : NULL;
		if (!fn) {
			printf("error %s\n", dlerror());
		} else {
			kept = fn();
			kept = NULL;
			printf("loaded\n");
		}
		fflush(stdout);
	}
	printf("done\n");
	return 0;
}
