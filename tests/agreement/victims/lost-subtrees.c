/*
 * lost-subtrees.c - a tree of seven 32-byte blocks held by a global loses
 * two subtrees: a leaf (cut from its parent) and an inner block with its
 * two leaves. The cut leaf and the cut inner block are definitely lost,
 * the inner block's leaves indirectly; the rest is still reachable.
 * Mirrors valgrind's leak-tree.
 *
 * A correct checker: definitely lost 64 bytes in 2 blocks, indirectly lost
 * 64 in 2, still reachable 96 in 3; exit status 23.
 *
 * EXPECT: definitely-lost 64 2; indirectly-lost 64 2; still-reachable >=96 >=3; rc 23
 */
#include "agree.h"

struct tree {
	struct tree *left, *right;
	long pad[2];
};

struct tree *top;

static struct tree *leaf(void)
{
	struct tree *t = calloc(1, sizeof(*t));
	agree_escape(t);
	return t;
}

__attribute__((noinline)) static void grow_and_cut(void)
{
	top = leaf();
	top->left = leaf();
	top->right = leaf();
	top->left->left = leaf();
	top->left->right = leaf();
	top->right->left = leaf();
	top->right->right = leaf();
	top->left->left = NULL; /* one leaf lost */
	top->right = NULL;      /* a subtree of three lost */
}

int main(void)
{
	grow_and_cut();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
