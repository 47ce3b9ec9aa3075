/*
 * tsd-dtor-check.c - a leak check runs from a thread's pthread key
 * destructor, while the thread is being torn down: its __thread variable
 * still holds a block, which is reachable then (the destructor frees it
 * after the check). Mirrors LSan's Linux/cleanup_in_tsd_destructor.
 *
 * A correct checker: nothing lost, at the check or at the end; the
 * 1,346-byte block still reachable at the check; exit status 0.
 *
 * EXPECT: still-reachable >=1346 >=1; rc 0
 */
#include <pthread.h>

#include "agree.h"

static pthread_key_t key;
static __thread void *mine;

static void at_thread_end(void *value)
{
	(void)value;
	agree_check();
	free(mine);
	mine = NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	mine = malloc(1346);
	pthread_setspecific(key, (void *)1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_key_create(&key, at_thread_end) != 0 ||
	    pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
		agree_fail(__func__);
	return 0;
}
