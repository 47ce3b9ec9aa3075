/*
 * why-kept: blocks kept for different reasons, for --why.
 *   cache        a global list of 3 nodes (32 bytes each): kept by the
 *                global "cache", the first nodes through the others;
 *   worker's 77  a live thread's own stack, in the frame of worker;
 *   leaked 123   nothing (definitely lost: no "kept by").
 * With an argument, it writes "ready" to stdout and waits to be killed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct node {
	struct node *next;
	char pad[24];
};

struct node *cache;

__attribute__((noinline)) static struct node *push_node(struct node *n)
{
	struct node *x = malloc(sizeof(*x));
	x->next = n;
	return x;
}

static volatile int ready;

__attribute__((noinline)) static void *worker(void *arg)
{
	void *volatile mine = malloc(77);
	ready = 1;
	for (;;)
		pause();
	return mine;
}

int main(int argc, char **argv)
{
	for (int i = 0; i < 3; i++)
		cache = push_node(cache);
	memset(malloc(123), 0, 123);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	while (!ready)
		usleep(1000);
	if (argc > 1) {
		write(1, "ready\n", 6);
		for (;;)
			pause();
	}
	return 0;
}
