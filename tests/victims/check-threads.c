/*
 * check-threads.c - a running program for `leakscope check`: it has lost a
 * 4321-byte block (lost_block) while a second thread holds an 8765-byte
 * block only in a register (r12) as it waits in a read() system call. It
 * prints "ready" and waits for a line on stdin; then the thread frees its
 * block and the program exits 0. The 8765 bytes must not be reported lost.
 * With the argument "exit" it calls exit(0) at once instead, while the
 * thread still holds the block: the exit scan must not report it either.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int pipefd[2];

__attribute__((noinline)) static void lost_block(void)
{
	void *p = malloc(4321);
	memset(p, 1, 4321);
}

__attribute__((noinline)) static void wipe(void)
{
	volatile char junk[8192];
	memset((char *)junk, 0, sizeof(junk));
}

/* The block lives in r12 only: malloc's dead frames below the stack
 * pointer are wiped, and a raw system call cannot spill it on the stack
 * while the thread waits. */
static void *holder(void *arg)
{
	(void)arg;
	register void *p asm("r12") = malloc(8765);
	wipe();
	long ret;
	char c;
	asm volatile("syscall" : "=a"(ret) : "0"((long)SYS_read), "D"((long)pipefd[0]), "S"(&c),
		     "d"(1L), "r"(p) : "rcx", "r11", "memory");
	free(p);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (pipe(pipefd) != 0 || pthread_create(&t, NULL, holder, NULL) != 0)
		return 1;
	lost_block();
	wipe();
	usleep(100 * 1000); /* the thread is in its read() */
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "exit"))
		exit(0);
	char line[64];
	if (!fgets(line, sizeof(line), stdin))
		return 2;
	if (write(pipefd[1], "x", 1) != 1)
		return 3;
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
