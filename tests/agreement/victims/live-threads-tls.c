/*
 * live-threads-tls.c - ten threads each keep five blocks in __thread
 * variables and sleep while main calls exit(): the threads are alive, so
 * their thread-local storage is a root. Mirrors LSan's
 * many_tls_keys_thread.
 *
 * A correct checker: nothing lost; 166,650 bytes in 50 blocks still
 * reachable; exit status 0.
 *
 * EXPECT: still-reachable >=166650 >=50; rc 0
 */
#include <pthread.h>

#include "agree.h"

__thread void *tv1, *tv2, *tv3, *tv4, *tv5;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int finished;

static void *sleeper(void *arg)
{
	(void)arg;
	tv1 = malloc(1111);
	tv2 = malloc(2222);
	tv3 = malloc(3333);
	tv4 = malloc(4444);
	tv5 = malloc(5555);
	pthread_mutex_lock(&lock);
	finished++;
	pthread_mutex_unlock(&lock);
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
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
