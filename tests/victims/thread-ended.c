/*
 * thread-ended: every last reference to four blocks lies in what a thread
 * that ended left behind - glibc keeps its stack, descriptor and static
 * TLS mapped for the next thread - and nowhere else. A correct checker
 * says definitely lost for each, as valgrind and LeakSanitizer do:
 *   64 bytes, the thread's argument (main drops its pointer);
 *   77 bytes, its return value (main drops it after the join);
 *   33 bytes, held in a __thread variable of the ended thread;
 *   99 bytes, whose pointer the thread left in a dead frame of its stack.
 * A fifth block, 55 bytes, stays referenced from a global: still reachable.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

__thread void *volatile thread_keeps;
void *volatile global_keeps;

__attribute__((noinline)) static void leave_in_dead_frame(void)
{
	void *volatile slots[64];
	void *p = malloc(99);
	for (int i = 0; i < 64; i++)
		slots[i] = p;
}

static void *worker(void *arg)
{
	memset(arg, 1, 64);
	thread_keeps = malloc(33);
	leave_in_dead_frame();
	return malloc(77);
}

int main(void)
{
	global_keeps = malloc(55);
	pthread_t t;
	void *volatile result = NULL;
	pthread_create(&t, NULL, worker, malloc(64));
	pthread_join(t, (void **)&result);
	result = NULL;
	return 0;
}
