/* fork-inherit.c - a daemon's pattern: the parent builds a table (a
 * global points to it), forks, and the child keeps its own blocks in that
 * inherited table: 20 blocks of 3,000 bytes (child_entry), reachable only
 * through the parent's block. The child also loses one block of 4,321
 * bytes (child_lost), then exits 0 from a function called by main, whose
 * frames are dead at the exit. The parent waits for it and exits 0, having
 * freed nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ENTRIES 20

struct table {
	char *entry[ENTRIES];
};

static struct table *table;

__attribute__((noinline)) static char *child_entry(void)
{
	return memset(malloc(3000), 7, 3000); /* LINE:child-entry */
}

__attribute__((noinline)) static void child_lost(void)
{
	char *p = malloc(4321); /* LINE:child-lost */
	memset(p, 9, 4321);
	p = NULL;
	__asm__ volatile("" : : "r"(p) : "memory");
}

__attribute__((noinline)) static void child(void)
{
	for (int i = 0; i < ENTRIES; i++)
		table->entry[i] = child_entry();
	child_lost();
	printf("child %d\n", (int)getpid());
	fflush(stdout);
	exit(0);
}

int main(void)
{
	table = calloc(1, sizeof(*table));
	printf("parent %d\n", (int)getpid());
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		child();
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}
