/*
 * dying-thread-dlerror.c - a detached thread made glibc allocate its
 * dlerror() message (a failed dlsym) and is in its last pthread key
 * destructor, asleep, when main returns: the thread is still alive, its
 * thread-local storage still points to the message, and glibc would free
 * it after the destructors. Not a leak. Mirrors LSan's
 * Linux/detached_thread_dlsym.
 *
 * A correct checker: nothing lost; exit status 0.
 *
 * EXPECT: rc 0
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "agree.h"

static pthread_key_t key;
static volatile int asleep;

static void at_thread_end(void *value)
{
	uintptr_t round = (uintptr_t)value;
	if (round > 1) {
		pthread_setspecific(key, (void *)(round - 1));
		return;
	}
	asleep = 1;
	sleep(30);
}

static void *worker(void *arg)
{
	(void)arg;
	if (dlsym(RTLD_DEFAULT, "no_such_symbol_anywhere_4242"))
		abort();
	pthread_setspecific(key, (void *)(uintptr_t)PTHREAD_DESTRUCTOR_ITERATIONS);
	return NULL;
}

int main(void)
{
	pthread_attr_t attr;
	pthread_t t;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_key_create(&key, at_thread_end) != 0 ||
	    pthread_create(&t, &attr, worker, NULL) != 0)
		agree_fail(__func__);
	while (!asleep)
		sched_yield();
	return 0;
}
