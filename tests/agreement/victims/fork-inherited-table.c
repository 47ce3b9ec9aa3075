/*
 * fork-inherited-table.c - before fork() the parent allocates a table that
 * a global points to; the child (no exec) keeps 20 blocks of 3,000 bytes
 * in that table, loses one block of 4,321 bytes and exits 0; the parent
 * waits for it and exits with its status. The child's blocks are held by
 * a block the child did not allocate but inherited (a daemon keeps its
 * work in tables built before it forked). No upstream case: found on an
 * Emacs daemon.
 *
 * A correct checker: definitely lost 4,321 bytes in 1 block (in the
 * child); the 20 blocks still reachable; exit status 23.
 *
 * EXPECT: definitely-lost 4321 1; still-reachable >=60000 >=20; rc 23
 */
#include <sys/wait.h>

#include "agree.h"

#define ENTRIES 20

static char **table;

__attribute__((noinline)) static void fill_table(void)
{
	for (int i = 0; i < ENTRIES; i++)
		table[i] = memset(malloc(3000), 1, 3000);
}

__attribute__((noinline)) static void lose_one(void)
{
	agree_escape(malloc(4321));
}

int main(void)
{
	table = calloc(ENTRIES, sizeof(*table));
	pid_t pid = fork();
	if (pid < 0 || !table)
		agree_fail(__func__);
	if (pid == 0) {
		fill_table();
		lose_one();
		agree_wipe_stack();
		agree_clear_scratch();
		return 0;
	}
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		agree_fail(__func__);
	return WEXITSTATUS(status);
}
