/*
 * disable-in-tsd-dtor.c - a thread's pthread key destructor allocates a
 * block in a disabled scope and drops it: the disabler works while the
 * thread is being torn down, and nothing is reported. Mirrors LSan's
 * Linux/disabler_in_tsd_destructor (valgrind has no such API: n/a).
 *
 * A correct checker: nothing lost; exit status 0.
 *
 * TOOLS: leakscope lsan
 * EXPECT: rc 0
 */
#include <pthread.h>

#include "agree.h"

static pthread_key_t key;

static void at_thread_end(void *value)
{
	(void)value;
	agree_disable();
	void *p = malloc(1345);
	agree_escape(p);
	pthread_setspecific(key, NULL);
	agree_enable();
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_setspecific(key, (void *)1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_key_create(&key, at_thread_end) != 0 ||
	    pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
		agree_fail(__func__);
	agree_wipe_stack();
	return 0;
}
