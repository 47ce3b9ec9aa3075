/*
 * refcount-churn.c - a reference-counted graph is churned 20,000 times
 * (nodes made, shared, dropped: each node points only to nodes older than
 * itself, so counting frees everything), then every root is released.
 * Nothing is left, though nearly everything was freed by a path other
 * than the one that allocated it. Mirrors valgrind's leakotron.
 *
 * A correct checker: nothing lost; exit status 0.
 *
 * EXPECT: rc 0
 */
#include "agree.h"

struct node {
	struct node *left, *right;
	int refs;
};

#define SLOTS 500
static struct node *slot[SLOTS];
static unsigned long seed = 12345;
static long alive;

static unsigned next(unsigned range)
{
	seed = seed * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(seed >> 33) % range;
}

static void take(struct node *n)
{
	if (n)
		n->refs++;
}

static void drop(struct node *n)
{
	if (n && --n->refs == 0) {
		drop(n->left);
		drop(n->right);
		free(n);
		alive--;
	}
}

static void assign(struct node **where, struct node *n)
{
	take(n);
	drop(*where);
	*where = n;
}

static struct node *make(int depth)
{
	unsigned i = next(SLOTS), r = next(4);
	struct node *n = NULL;
	if (r < 2) {
		n = slot[i];
	} else if (r == 2 && depth < 20) {
		n = calloc(1, sizeof(*n));
		alive++;
		assign(&n->left, make(depth + 1));
		assign(&n->right, make(depth + 1));
	}
	assign(&slot[i], n);
	return n;
}

int main(void)
{
	for (int i = 0; i < 20000; i++)
		make(0);
	for (int i = 0; i < SLOTS; i++)
		assign(&slot[i], NULL);
	return alive != 0;
}
