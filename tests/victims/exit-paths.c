/*
 * exit-paths MODE [PIDFILE]: leak 4,100 bytes from leak_before_end(), then
 * end the way MODE says:
 *   return  return 3 from main       exit   exit(4)
 *   _exit   _exit(5), no atexit      abort  abort() (SIGABRT, status 134)
 *   exit_group  the raw syscall with status 6, as Go's os.Exit: no hook runs
 *   segv    a NULL store (SIGSEGV, status 139)
 *   wait    write our pid to PIDFILE (atomically, by rename) and sleep
 *           until killed from outside
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((noinline)) static void *leak_before_end(void)
{
	char *p = malloc(4100); /* LINE:exit-malloc */
	memset(p, 0x5a, 4100);
	return p;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "return";
	void *p = leak_before_end();

	free(malloc(4200)); /* freed: never reported */
	printf("leaked %p, ending by %s\n", p, mode);
	fflush(stdout);
	if (strcmp(mode, "return") == 0)
		return 3;
	if (strcmp(mode, "exit") == 0)
		exit(4);
	if (strcmp(mode, "_exit") == 0)
		_exit(5);
	if (strcmp(mode, "exit_group") == 0)
		syscall(SYS_exit_group, 6);
	if (strcmp(mode, "abort") == 0)
		abort();
	if (strcmp(mode, "segv") == 0) {
		*(volatile int *)0 = 1;
		return 1;
	}
	if (strcmp(mode, "wait") == 0 && argc > 2) {
		char tmp[4096];
		FILE *f;

		snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
		f = fopen(tmp, "w");
		if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
			return 2;
		if (rename(tmp, argv[2]) != 0)
			return 2;
		for (;;)
			pause();
	}
	fprintf(stderr, "exit-paths: unknown mode %s\n", mode);
	return 2;
}
