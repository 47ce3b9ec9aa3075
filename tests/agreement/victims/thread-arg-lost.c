/*
 * thread-arg-lost.c - ten threads each get a 123-byte block as their
 * argument and end without freeing it; main joins them and has kept no
 * copy. The threads are gone: their argument is lost, though glibc keeps
 * the finished threads' stacks (and descriptors, which remember the
 * argument) in its cache for reuse. Mirrors LSan's create_thread_leak
 * (the leaked-argument run).
 *
 * A correct checker: definitely lost 1,230 bytes in 10 blocks; exit
 * status 23.
 *
 * EXPECT: definitely-lost 1230 10; rc 23
 */
#include <pthread.h>

#include "agree.h"

static void *worker(void *arg)
{
	((char *)arg)[0] = 1;
	return NULL;
}

__attribute__((noinline)) static int start(pthread_t *t)
{
	return pthread_create(t, NULL, worker, malloc(123));
}

int main(void)
{
	pthread_t t[10];
	for (int i = 0; i < 10; i++)
		if (start(&t[i]) != 0)
			agree_fail(__func__);
	for (int i = 0; i < 10; i++)
		pthread_join(t[i], NULL);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
