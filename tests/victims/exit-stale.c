/*
 * exit-stale [exit]: the only copies of a 100-byte block's pointer are in a
 * frame that is dead before the program ends - 512 of them, so that some
 * survive the exit path's own frames (atexit handlers, destructors, exit's
 * frames) in the part of the stack below where main returned, or where
 * exit() was called. That part is dead at the end: the block is
 * definitely lost (valgrind and LeakSanitizer say so). With "exit", the
 * block is made and sprayed two calls below main, and exit() is called
 * from there.
 */
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void spray(void *p)
{
	void *volatile copies[512];
	for (int i = 0; i < 512; i++)
		copies[i] = p;
}

__attribute__((noinline)) static void leave_now(int depth)
{
	volatile char frame[256];
	frame[0] = (char)depth;
	if (depth)
		leave_now(depth - 1);
	spray(malloc(100));
	exit(0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exit") == 0)
		leave_now(1);
	spray(malloc(100));
	return 0;
}
