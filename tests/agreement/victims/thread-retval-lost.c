/*
 * thread-retval-lost.c - ten threads each return a 234-byte block; main
 * joins them and drops the returned pointers. The threads are gone: the
 * blocks are lost, though glibc's cached descriptors of the finished
 * threads still hold the return values. Mirrors LSan's create_thread_leak
 * (the leaked-return-value run).
 *
 * A correct checker: definitely lost 2,340 bytes in 10 blocks; exit
 * status 23.
 *
 * EXPECT: definitely-lost 2340 10; rc 23
 */
#include <pthread.h>

#include "agree.h"

static void *worker(void *arg)
{
	(void)arg;
	char *p = malloc(234);
	p[0] = 1;
	return p;
}

__attribute__((noinline)) static void join_and_drop(pthread_t t)
{
	void *ret = NULL;
	pthread_join(t, &ret);
	agree_escape(ret);
}

int main(void)
{
	pthread_t t[10];
	for (int i = 0; i < 10; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			agree_fail(__func__);
	for (int i = 0; i < 10; i++)
		join_and_drop(t[i]);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
