/*
 * thread-not-started.c - main makes a detached thread whose argument is a
 * 1,347-byte block the thread would free, but holds a mutex the thread
 * first waits for, and returns: the thread is alive (maybe not even
 * started), its argument is no leak. Mirrors LSan's
 * leak_check_before_thread_started.
 *
 * A correct checker: nothing lost; exit status 0.
 *
 * EXPECT: rc 0
 */
#include <pthread.h>

#include "agree.h"

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	pthread_mutex_lock(&gate);
	free(arg);
	pthread_mutex_unlock(&gate);
	return NULL;
}

__attribute__((noinline)) static int start(void)
{
	pthread_attr_t attr;
	pthread_t t;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_mutex_lock(&gate);
	return pthread_create(&t, &attr, worker, malloc(1347));
}

int main(void)
{
	if (start() != 0)
		agree_fail(__func__);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
