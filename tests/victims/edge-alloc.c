/*
 * edge-alloc: allocator calls at their edges.
 *   keep_after_failed_realloc  malloc 4,321 then a realloc that fails: the
 *                              block stays and is leaked (4,321 bytes)
 *   leak_zero                  malloc(0), leaked: 0 bytes, 1 object
 *   failures                   calloc overflow, posix_memalign with a bad
 *                              alignment, malloc(SIZE_MAX): no block
 *   free(NULL) x 1,000         nothing
 * errno is checked around every call: a successful call leaves it alone.
 * Exits 9 if errno was disturbed, else 0.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;

static void check_errno(const char *what)
{
	if (errno != 1234) {
		printf("errno changed by %s: %d\n", what, errno);
		bad = 1;
	}
}

__attribute__((noinline)) static void *keep_after_failed_realloc(void)
{
	char *p = malloc(4321); /* LINE:edge-malloc */
	memset(p, 1, 4321);
	void *q = realloc(p, SIZE_MAX / 2);
	if (q) {
		printf("huge realloc succeeded?\n");
		return q;
	}
	return p;
}

__attribute__((noinline)) static void *leak_zero(void)
{
	return malloc(0);
}

int main(void)
{
	void *p, *z, *q = NULL;

	p = keep_after_failed_realloc();
	if (calloc(SIZE_MAX / 2, 4) != NULL || malloc(SIZE_MAX) != NULL)
		printf("overflowing allocation succeeded?\n");
	if (posix_memalign(&q, 3, 100) == 0)
		printf("posix_memalign(3) succeeded?\n");
	for (int i = 0; i < 1000; i++)
		free(NULL);

	errno = 1234;
	z = leak_zero();
	check_errno("malloc(0)");
	free(malloc(100));
	check_errno("malloc/free");
	free(calloc(10, 10));
	check_errno("calloc/free");
	void *r = realloc(NULL, 50);
	r = realloc(r, 5000);
	check_errno("realloc");
	free(r);
	check_errno("free");
	printf("%p %p\n", p, z);
	return bad ? 9 : 0;
}
