/*
 * phases.c - a running program for `leakscope record` driven from its
 * control socket: it moves through phases, one per line read on stdin,
 * and says on stdout when each is done, so that a test can mark, snapshot,
 * stop and start the recording and check it between them.
 *
 *   start    lost_block: 4321 bytes, lost; before_stop: 10 x 1111 bytes;
 *            prints "ready PID"
 *   line 1   while_stopped: 10 x 2222 bytes; frees 5 of the 1111; "two"
 *   line 2   after_start: 10 x 3333 bytes; frees the other 5 of the 1111
 *            and every 2222; "three"
 *   line 3   frees 5 of the 3333; "done"; exits 0 (5 x 3333 and the 4321
 *            bytes are left)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 10

static void *ones[N], *twos[N], *threes[N];

__attribute__((noinline)) static void lost_block(void)
{
	void *p = malloc(4321);
	memset(p, 1, 4321);
}

/* Clear the dead frames below the stack pointer (no stale copy of p). */
__attribute__((noinline)) static void wipe(void)
{
	volatile char junk[8192];
	memset((char *)junk, 0, sizeof(junk));
}

__attribute__((noinline)) static void before_stop(void)
{
	for (int i = 0; i < N; i++)
		ones[i] = malloc(1111);
}

__attribute__((noinline)) static void while_stopped(void)
{
	for (int i = 0; i < N; i++)
		twos[i] = malloc(2222);
}

__attribute__((noinline)) static void after_start(void)
{
	for (int i = 0; i < N; i++)
		threes[i] = malloc(3333);
}

/* The next line on stdin (the test's go-ahead); 0 at its end. */
static int next(void)
{
	char line[64];
	return fgets(line, sizeof(line), stdin) != NULL;
}

static void say(const char *what)
{
	printf("%s\n", what);
	fflush(stdout);
}

int main(void)
{
	lost_block();
	wipe();
	before_stop();
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!next())
		return 2;
	while_stopped();
	for (int i = 0; i < N / 2; i++)
		free(ones[i]);
	say("two");
	if (!next())
		return 2;
	after_start();
	for (int i = N / 2; i < N; i++)
		free(ones[i]);
	for (int i = 0; i < N; i++)
		free(twos[i]);
	say("three");
	if (!next())
		return 2;
	for (int i = 0; i < N / 2; i++)
		free(threes[i]);
	say("done");
	return 0;
}
