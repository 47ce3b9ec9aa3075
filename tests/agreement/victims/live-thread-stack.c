/*
 * live-thread-stack.c - a thread keeps a block in a local variable of its
 * live frame and spins while main returns: the block is still reachable.
 * Mirrors LSan's use_stacks_threaded.
 *
 * A correct checker: nothing lost; the 1,338-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=1338 >=1; rc 0
 */
#include <pthread.h>
#include <sched.h>

#include "agree.h"

static volatile int ready;

static void *keeper(void *arg)
{
	void *volatile kept = malloc(1338);
	(void)arg;
	ready = 1;
	for (;;)
		sched_yield();
	return kept;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, keeper, NULL) != 0)
		agree_fail(__func__);
	while (!ready)
		sched_yield();
	return 0;
}
