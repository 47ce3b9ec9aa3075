/* leaky.c - the bundled example: a small program with two leaks (a
 * greeting, definitely lost; a list of five nodes, its head definitely and
 * the rest indirectly lost) and a lot of memory correctly freed, for
 * `make demo`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
	struct node *next;
	char name[24];
};

/* Builds a list of n nodes, newest first. */
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

/* Prints the head of a new list, then forgets the whole list. */
__attribute__((noinline)) static void show_list(void)
{
	struct node *list = make_list(5);
	printf("list head: %s\n", list->name);
}

static char *greeting(const char *who)
{
	char *s = malloc(strlen(who) + 8);
	sprintf(s, "hello, %s", who);
	return s;
}

int main(void)
{
	char *g = greeting("leak");
	puts(g);
	g = NULL; /* the greeting is lost */
	show_list();
	/* last: these calls also overwrite the dead stack slots where pointers
	 * to the lost blocks lingered, which a conservative scan would see */
	for (int i = 0; i < 10000; i++)
		free(greeting("world"));
	return 0;
}
