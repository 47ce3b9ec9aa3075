/*
 * fork-exit-from-thread.c - the main thread keeps a block in a __thread
 * variable and forks; in the child a second thread calls exit() while
 * the child's main thread waits to join it. The child's main thread is
 * alive: its thread-local block (inherited) is no leak, in the child nor
 * in the parent. Mirrors LSan's Linux/fork_threaded.
 *
 * A correct checker: nothing lost; exit status 0.
 *
 * EXPECT: rc 0
 */
#include <pthread.h>
#include <sys/wait.h>

#include "agree.h"

static __thread void *mine;

static void *ender(void *arg)
{
	(void)arg;
	exit(0);
}

int main(void)
{
	mine = malloc(1348);
	pid_t pid = fork();
	if (pid < 0)
		agree_fail(__func__);
	if (pid == 0) {
		pthread_t t;
		if (pthread_create(&t, NULL, ender, NULL) != 0)
			agree_fail(__func__);
		pthread_join(t, NULL);
		return 2;
	}
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		agree_fail(__func__);
	return WEXITSTATUS(status);
}
