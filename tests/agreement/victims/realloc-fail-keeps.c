/*
 * realloc-fail-keeps.c - a realloc() that fails (64 TiB) leaves the
 * original 9-byte block as it was: still allocated, still of its size,
 * from its allocation stack. The program then loses it. Mirrors LSan's
 * realloc_too_big and Linux/realloc_failure_keeps_original (the
 * original's allocation failure behaviour is LSan's
 * allocator_may_return_null=1, which the runner sets).
 *
 * A correct checker: definitely lost 9 bytes in 1 block; exit status 23.
 *
 * EXPECT: definitely-lost 9 1; rc 23
 */
#include "agree.h"

__attribute__((noinline)) static int lose(void)
{
	char *p = malloc(9);
	memset(p, 'a', 9);
	agree_escape(p);
	void *q = realloc(p, (size_t)1 << 46);
	if (q) {
		free(q);
		agree_fail(__func__);
	}
	return p[8] != 'a';
}

int main(void)
{
	if (lose())
		agree_fail(__func__);
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
