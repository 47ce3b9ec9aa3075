/*
 * thread-tls-lost.c - ten threads each keep a 345-byte block in a __thread
 * variable and end; main joins them. A finished thread's thread-local
 * storage is no root any more (glibc keeps it, with the stack, in its
 * cache for reuse, but nothing can reach it): the blocks are lost. The
 * other side of LSan's Linux/use_tls_static and many_tls_keys_thread,
 * where the threads are alive.
 *
 * A correct checker: definitely lost 3,450 bytes in 10 blocks; exit
 * status 23.
 *
 * EXPECT: definitely-lost 3450 10; rc 23
 */
#include <pthread.h>

#include "agree.h"

static __thread void *mine;

static void *worker(void *arg)
{
	(void)arg;
	mine = malloc(345);
	agree_escape(&mine);
	return NULL;
}

int main(void)
{
	pthread_t t[10];
	for (int i = 0; i < 10; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			agree_fail(__func__);
	for (int i = 0; i < 10; i++)
		pthread_join(t[i], NULL);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
