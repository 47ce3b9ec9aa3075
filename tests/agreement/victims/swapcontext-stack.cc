/*
 * swapcontext-stack.cc - a coroutine runs (swapcontext) on a 1 MiB array of main's stack, zeroed once the coroutine is done; it loses a
 * 2,664-byte block (new int[666]) before it switches back. Where the
 * coroutine ran is no root any more afterwards: the block is lost.
 * Mirrors LSan's swapcontext (its stack run).
 *
 * A correct checker: definitely lost 2,664 bytes in 1 block; exit status
 * 23.
 *
 * EXPECT: definitely-lost 2664 1; rc 23
 */
#include <ucontext.h>

#include "agree.h"

static const size_t kStack = 1 << 20;
static ucontext_t back, coroutine;

static void body()
{
	int *lost = new int[666];
	agree_escape(lost);
}

__attribute__((noinline)) static int run(char *stack)
{
	if (getcontext(&coroutine) != 0)
		agree_fail(__func__);
	coroutine.uc_stack.ss_sp = stack;
	coroutine.uc_stack.ss_size = kStack;
	coroutine.uc_link = &back;
	makecontext(&coroutine, body, 0);
	return swapcontext(&back, &coroutine) != 0;
}

int main()
{
	char stack_memory[kStack] __attribute__((aligned(16)));
	char *heap_memory = new char[kStack];
	if (run(stack_memory))
		agree_fail(__func__);
	explicit_bzero(stack_memory, kStack);
	explicit_bzero(&coroutine, sizeof(coroutine));
	delete[] heap_memory;
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
