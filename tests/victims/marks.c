/*
 * marks.c - the program API's marks and snapshots (include/leakscope.h)
 * between allocations of known sizes, from the main thread and from a
 * signal handler. Runs unchanged without leakscope.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leakscope.h"

static void on_usr1(int sig)
{
	(void)sig;
	leakscope_mark("from a signal handler");
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	leakscope_mark("start");
	void *a = malloc(1000);
	leakscope_snapshot("after a");
	void *b = malloc(2000);
	leakscope_mark("after b");
	free(a);
	raise(SIGUSR1);
	char long_text[2000];
	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = 0;
	leakscope_mark(long_text);
	free(b);
	leakscope_snapshot("end");
	printf("marks done, under leakscope: %d\n", leakscope_running());
	return 0;
}
