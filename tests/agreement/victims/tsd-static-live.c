/*
 * tsd-static-live.c - the main thread's pthread_setspecific() value of a
 * low key (stored in the thread descriptor itself) holds a block at the
 * end: still reachable. Mirrors LSan's Linux/use_tls_pthread_specific_static.
 *
 * A correct checker: nothing lost; the 1,341-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=1341 >=1; rc 0
 */
#include <pthread.h>

#include "agree.h"

__attribute__((noinline)) static int keep(void)
{
	pthread_key_t key;
	if (pthread_key_create(&key, NULL) != 0 || key >= 32)
		agree_fail(__func__);
	return pthread_setspecific(key, malloc(1341));
}

int main(void)
{
	if (keep())
		agree_fail(__func__);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
