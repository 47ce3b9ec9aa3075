/*
 * chains.c MODE - one pointer-chain shape per mode, for the reachability
 * scan (leakscope run). Sizes identify the blocks:
 *   direct    1111 definitely lost (no pointer anywhere)
 *   list      a lost list: head 2222 definite, 4 x 222 indirect
 *   cycle     3 x 333 in a lost cycle: 1 definite, 2 indirect
 *   interior  4444 reached only by a global pointing 16 bytes inside: possible
 *   global    5555 kept by a global: still reachable
 *   stack     6666 kept by a local of a frame still running: still reachable
 *   tls       7777 kept by a thread-local: still reachable
 *   freed     8888 pointed to only from a freed block: definitely lost
 *   chain     a global -> 9999 -> 999: both still reachable
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
	struct node *next;
	char pad[200];
};

static void *volatile global_ptr;
static __thread void *volatile tls_ptr;

/* Hide a pointer from the stack and registers: only what a caller stores
 * where the scan can see it keeps a block alive. */
static void scrub(void)
{
	volatile char wipe[4096];
	memset((char *)wipe, 0, sizeof(wipe));
}

__attribute__((noinline)) static void direct(void)
{
	void *p = malloc(1111);
	memset(p, 1, 1111);
}

__attribute__((noinline)) static void list(void)
{
	struct node *head = malloc(2222);
	memset(head, 0, 2222);
	struct node *cur = head;
	for (int i = 0; i < 4; i++) {
		cur->next = calloc(1, 222);
		cur = cur->next;
	}
}

__attribute__((noinline)) static void cycle(void)
{
	void **a = calloc(1, 333), **b = calloc(1, 333), **c = calloc(1, 333);
	a[0] = b;
	b[0] = c;
	c[0] = a;
}

__attribute__((noinline)) static void interior(void)
{
	char *p = calloc(1, 4444);
	global_ptr = p + 16;
}

__attribute__((noinline)) static void global(void)
{
	global_ptr = calloc(1, 5555);
}

__attribute__((noinline)) static void tls(void)
{
	tls_ptr = calloc(1, 7777);
}

__attribute__((noinline)) static void freed(void)
{
	void **holder = malloc(64);
	holder[0] = calloc(1, 8888);
	free(holder); /* the stale pointer in freed memory must not count */
}

__attribute__((noinline)) static void chain(void)
{
	void **a = calloc(1, 9999);
	a[0] = calloc(1, 999);
	global_ptr = a;
}

__attribute__((noinline)) static int stack_then_exit(void)
{
	void *volatile keep = calloc(1, 6666);
	scrub();
	fflush(stdout);
	exit(keep != NULL ? 0 : 1); /* exit while this frame holds the block */
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "direct")) direct();
	else if (!strcmp(m, "list")) list();
	else if (!strcmp(m, "cycle")) cycle();
	else if (!strcmp(m, "interior")) interior();
	else if (!strcmp(m, "global")) global();
	else if (!strcmp(m, "tls")) tls();
	else if (!strcmp(m, "freed")) freed();
	else if (!strcmp(m, "chain")) chain();
	else if (!strcmp(m, "stack")) stack_then_exit();
	else return 2;
	scrub();
	return 0;
}
