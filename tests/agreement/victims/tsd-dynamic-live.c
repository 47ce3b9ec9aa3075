/*
 * tsd-dynamic-live.c - the main thread's pthread_setspecific() value of a
 * high key (32 keys are made first: glibc keeps the values of the keys
 * above them in a second-level array it allocates) holds a block at the
 * end: still reachable. Mirrors LSan's
 * Linux/use_tls_pthread_specific_dynamic.
 *
 * A correct checker: nothing lost; the 1,342-byte block still reachable;
 * exit status 0.
 *
 * EXPECT: still-reachable >=1342 >=1; rc 0
 */
#include <pthread.h>

#include "agree.h"

__attribute__((noinline)) static int keep(void)
{
	pthread_key_t key;
	for (int i = 0; i < 32; i++)
		if (pthread_key_create(&key, NULL) != 0)
			agree_fail(__func__);
	if (pthread_key_create(&key, NULL) != 0 || key < 32)
		agree_fail(__func__);
	return pthread_setspecific(key, malloc(1342));
}

int main(void)
{
	if (keep())
		agree_fail(__func__);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
