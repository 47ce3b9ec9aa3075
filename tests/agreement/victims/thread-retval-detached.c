/*
 * thread-retval-detached.c - ten detached threads each return a 235-byte
 * block that nobody can collect; main waits until the threads are gone
 * (only main is left in /proc/self/task) and returns. The blocks are
 * lost. Mirrors LSan's create_thread_leak (the detached run).
 *
 * A correct checker: definitely lost 2,350 bytes in 10 blocks; exit
 * status 23.
 *
 * EXPECT: definitely-lost 2350 10; rc 23
 */
#include <dirent.h>
#include <pthread.h>

#include "agree.h"

static void *worker(void *arg)
{
	(void)arg;
	char *p = malloc(235);
	p[0] = 1;
	return p;
}

static int threads_left(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

int main(void)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < 10; i++) {
		pthread_t t;
		if (pthread_create(&t, &attr, worker, NULL) != 0)
			agree_fail(__func__);
	}
	while (threads_left() > 1)
		usleep(1000);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
