/* attach-server.c - a small server leakscope does not start, for attach:
 * it prints "ready PID", then answers each line on stdin. "req" is a
 * request: handle_request() leaks 100 bytes, keeps 16 in a list held by a
 * global and frees a temporary copy of the line; "fork" forks a child that
 * leaks 50 bytes in child_work() and exits 0; "go" (or the end of input)
 * ends it: it prints "done N" (N requests) and exits 0. Before the first
 * line it has lost 777 bytes and holds 5,000. With an argument N, N more
 * threads allocate and free blocks of many sizes until the end (busy in
 * many threads; a thread may be inside malloc at any moment). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct node {
	struct node *next;
	long n;
};

static struct node *held;       /* 16 bytes a request, reachable */
static void *before_held;
static void *volatile sink;     /* a pointer the compiler must keep */
static volatile int stop;

__attribute__((noinline)) static void handle_request(const char *line)
{
	char *copy = strdup(line);
	sink = malloc(100);          /* lost when the next request overwrites it */
	memset(sink, 'x', 100);
	struct node *n = malloc(sizeof(*n));
	n->next = held;
	n->n = (long)strlen(copy);
	held = n;
	free(copy);
}

__attribute__((noinline)) static void child_work(void)
{
	sink = malloc(50);
	memset(sink, 'c', 50);
	sink = NULL;
}

static void *churn(void *arg)
{
	unsigned seed = (unsigned)(long)arg;
	void *slot[64] = {0};
	while (!stop) {
		int i = rand_r(&seed) % 64;
		free(slot[i]);
		slot[i] = malloc((size_t)(rand_r(&seed) % 2000) + 1);
	}
	for (int i = 0; i < 64; i++)
		free(slot[i]);
	return NULL;
}

static void fork_child(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		child_work();
		exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	printf("child %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 0;
	pthread_t t[16];
	char line[256];
	long requests = 0;
	sink = malloc(777);
	memset(sink, 'b', 777);
	sink = NULL;
	before_held = malloc(5000);
	for (int i = 0; i < threads && i < 16; i++)
		pthread_create(&t[i], NULL, churn, (void *)(long)(i + 1));
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) && strcmp(line, "go\n")) {
		if (!strcmp(line, "fork\n")) {
			fork_child();
		} else {
			handle_request(line);
			requests++;
			printf("ok %ld\n", requests);
		}
		fflush(stdout);
	}
	stop = 1;
	for (int i = 0; i < threads && i < 16; i++)
		pthread_join(t[i], NULL);
	sink = NULL;
	printf("done %ld\n", requests);
	return 0;
}
