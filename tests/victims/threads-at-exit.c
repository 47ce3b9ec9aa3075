/*
 * threads-at-exit: threads are being created as fast as possible while
 * main ends the process, so that the group exit kills threads that have
 * just been cloned - their first stop under ptrace may be their exit stop,
 * before their creator's clone event. Leaks 3,030 bytes from main first.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *nothing(void *arg)
{
	return arg;
}

static void *spawner(void *arg)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (;;) {
		pthread_t t;
		pthread_create(&t, &a, nothing, arg);
	}
	return NULL;
}

__attribute__((noinline)) static void lose(void)
{
	char *p = malloc(3030); /* LINE:at-exit-malloc */
	memset(p, 3, 3030);
}

int main(void)
{
	pthread_t s[2];
	lose();
	for (int i = 0; i < 2; i++)
		pthread_create(&s[i], NULL, spawner, NULL);
	usleep(20000);
	exit(0);
}
