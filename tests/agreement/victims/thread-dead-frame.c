/*
 * thread-dead-frame.c - ten threads each leave the only pointer to a
 * 456-byte block in a local of a function that returned, and end; main
 * joins them. A finished thread's stack is no root (glibc caches it for
 * reuse): the blocks are lost. The thread counterpart of LSan's
 * stale_stack_leak.
 *
 * A correct checker: definitely lost 4,560 bytes in 10 blocks; exit
 * status 23.
 *
 * EXPECT: definitely-lost 4560 10; rc 23
 */
#include <pthread.h>

#include "agree.h"

__attribute__((noinline)) static void use_and_forget(void)
{
	void *volatile local[64];
	local[0] = malloc(456);
	for (int i = 1; i < 64; i++)
		local[i] = local[0];
}

static void *worker(void *arg)
{
	(void)arg;
	use_and_forget();
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
