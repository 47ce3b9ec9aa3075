/*
 * lost-cycles.c - lost structures made of cycles: two rings of three
 * blocks each on their own; a ring with a pointer into another ring; two
 * rings pointing into each other. Each structure nobody points to has one
 * head (definitely lost) and the rest below it (indirectly lost), whatever
 * block of a ring the checker picks as the head. Mirrors valgrind's
 * leak-cycle.
 *
 * A correct checker: definitely lost 4 blocks of 32 bytes (128), indirectly
 * lost the other 14 (448); exit status 23.
 *
 * EXPECT: definitely-lost 128 4; indirectly-lost 448 14; rc 23
 */
#include "agree.h"

struct node {
	struct node *left, *right;
	long pad[2];
};

static struct node *node(struct node *left)
{
	struct node *n = calloc(1, sizeof(*n));
	n->left = left;
	agree_escape(n);
	return n;
}

/* three blocks, each pointing to the one made before it, the first to the last */
static struct node *ring(void)
{
	struct node *first = node(NULL);
	struct node *last = node(node(first));
	first->left = last;
	return first;
}

__attribute__((noinline)) static void lose_rings(void)
{
	ring();
	ring();

	struct node *a = ring(), *b = ring();
	a->right = b;

	struct node *c = ring(), *d = ring();
	c->right = d;
	d->right = c;
}

int main(void)
{
	lose_rings();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
