/*
 * live-threads-tsd.c - ten threads each set every pthread key the process
 * could make (up to 1,024, most of them in glibc's second-level arrays)
 * to a block of its own, and sleep while main calls exit(): live threads'
 * thread-specific values are roots. Mirrors LSan's many_tls_keys_pthread.
 *
 * A correct checker: nothing lost; at least 10 x 1,000 blocks of 123
 * bytes still reachable; exit status 0.
 *
 * EXPECT: still-reachable >=1230000 >=10000; rc 0
 */
#include <limits.h>
#include <pthread.h>

#include "agree.h"

static pthread_key_t keys[PTHREAD_KEYS_MAX];
static int nkeys;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int finished;

static void *sleeper(void *arg)
{
	(void)arg;
	for (int i = 0; i < nkeys; i++)
		if (pthread_setspecific(keys[i], malloc(123)) != 0)
			abort();
	pthread_mutex_lock(&lock);
	finished++;
	pthread_mutex_unlock(&lock);
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
	while (nkeys < PTHREAD_KEYS_MAX && pthread_key_create(&keys[nkeys], NULL) == 0)
		nkeys++;
	if (nkeys < 1000)
		agree_fail(__func__);
	for (int i = 0; i < 10; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, sleeper, NULL) != 0)
			agree_fail(__func__);
	}
	for (;;) {
		pthread_mutex_lock(&lock);
		int n = finished;
		pthread_mutex_unlock(&lock);
		if (n == 10)
			break;
		usleep(1000);
	}
	exit(0);
}
