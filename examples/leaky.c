/* leaky.c - the bundled example: a small program with two leaks and a
 * lot of memory correctly freed, for `make demo`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
	struct node *next;
	char name[24];
};

/* Builds a list and forgets it: one head plus its nodes are lost. */
static struct node *make_list(int n)
{
	struct node *head = NULL;
	for (int i = 0; i < n; i++) {
		struct node *x = malloc(sizeof(*x));
		snprintf(x->name, sizeof(x->name), "node %d", i);
		x->next = head;
		head = x;
	}
	return head;
}

static char *greeting(const char *who)
{
	char *s = malloc(strlen(who) + 8);
	sprintf(s, "hello, %s", who);
	return s;
}

int main(void)
{
	for (int i = 0; i < 10000; i++)
		free(greeting("world"));
	char *g = greeting("leak");
	puts(g);
	g = NULL; /* the last greeting is lost */
	struct node *list = make_list(5);
	printf("list head: %s\n", list->name);
	return 0;
}
