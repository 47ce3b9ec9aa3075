/*
 * ucontext-thread.c - a thread switches (setcontext) to a 64 KiB stack it
 * took from malloc and spins there while main returns: the thread's stack
 * pointer is not in its own stack mapping. The scan must neither fault
 * nor lose the block the thread runs on (its start is still in the
 * thread's original stack, and the thread is running on it). Mirrors
 * LSan's Linux/guard-page.
 *
 * A correct checker: nothing lost; the 65,536-byte block still
 * reachable; exit status 0.
 *
 * EXPECT: still-reachable >=65536 >=1; rc 0
 */
#include <pthread.h>
#include <sched.h>
#include <ucontext.h>

#include "agree.h"

static volatile int running;

static void on_heap_stack(void)
{
	running = 1;
	for (;;)
		sched_yield();
}

static void *worker(void *arg)
{
	ucontext_t ctx;
	(void)arg;
	if (getcontext(&ctx) != 0)
		abort();
	void *volatile stack = malloc(65536);
	ctx.uc_stack.ss_sp = stack;
	ctx.uc_stack.ss_size = 65536;
	ctx.uc_link = NULL;
	makecontext(&ctx, on_heap_stack, 0);
	setcontext(&ctx);
	abort();
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, worker, NULL) != 0)
		agree_fail(__func__);
	while (!running)
		sched_yield();
	return 0;
}
