/*
 * churn-at-exit.c - four threads malloc and free as fast as they can while
 * main returns: the process ends in the middle of allocations and frees,
 * and each thread holds at most the block it is using (in a register or
 * its live frame). Nothing is lost, nothing hangs. Mirrors LSan's
 * high_allocator_contention, lsan_crash, thread_context_crash and
 * Linux/libdl_deadlock (allocation under contention while the check
 * starts).
 *
 * A correct checker: nothing lost; exit status 0.
 *
 * EXPECT: rc 0
 */
#include <pthread.h>

#include "agree.h"

static void *churn(void *arg)
{
	unsigned i = (unsigned)(size_t)arg;
	for (;;) {
		char *p = malloc(16 + i % 4096);
		p[0] = (char)i++;
		agree_escape(p);
		free(p);
	}
	return NULL;
}

int main(void)
{
	for (size_t i = 0; i < 4; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, churn, (void *)i) != 0)
			agree_fail(__func__);
	}
	usleep(200 * 1000);
	return 0;
}
