/*
 * churn-kill PIDFILE: 3 threads churn through malloc/free without pause,
 * each holding up to 64 blocks (churn); main leaks 7,777 bytes
 * (leak_then_wait), writes its pid to PIDFILE once the churn has run for a
 * while and then sleeps until it is killed - in the middle of the churn.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_long rounds;

static void *churn(void *arg)
{
	unsigned x = (unsigned)(long)arg;
	void *keep[64] = {0};

	for (;;) {
		x = x * 1103515245u + 12345u;
		int s = (int)((x >> 8) % 64);
		free(keep[s]);
		keep[s] = malloc(16 + (x >> 12) % 3000);
		atomic_fetch_add(&rounds, 1);
	}
	return NULL;
}

__attribute__((noinline)) static void *leak_then_wait(void)
{
	return memset(malloc(7777), 7, 7777);
}

int main(int argc, char **argv)
{
	pthread_t t;
	char tmp[4096];
	FILE *f;

	if (argc < 2)
		return 2;
	printf("%p\n", leak_then_wait());
	fflush(stdout);
	for (long k = 0; k < 3; k++)
		pthread_create(&t, NULL, churn, (void *)(k + 1));
	while (atomic_load(&rounds) < 300000)
		usleep(1000);
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	if (!(f = fopen(tmp, "w")) || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
		return 2;
	if (rename(tmp, argv[1]) != 0)
		return 2;
	for (;;)
		pause();
}
