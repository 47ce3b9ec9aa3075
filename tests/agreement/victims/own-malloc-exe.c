/*
 * own-malloc-exe.c - the executable defines malloc, calloc, realloc and
 * free itself (wrappers around the C library's __libc_* entry points, as
 * a program with its own allocator layer would), and loses a 4,096-byte
 * block through them. An interposer loaded with LD_PRELOAD comes after
 * the executable in symbol lookup and never sees these calls; a checker
 * that cannot follow them must say so clearly instead of a clean report.
 * Mirrors valgrind's wrapmallocstatic (and wrapmalloc).
 *
 * A correct checker: definitely lost 4,096 bytes in 1 block, exit status
 * 23 - or a note saying that the program's own malloc is not seen.
 *
 * EXPECT: definitely-lost 4096 1; rc 23
 * EXPECT-OR: note /own malloc|malloc of its own|defines (its own )?malloc/
 */
#include <stddef.h>

#include "agree.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static size_t calls;

void *malloc(size_t n)
{
	calls++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
	calls++;
	return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
	calls++;
	return __libc_realloc(p, n);
}

void free(void *p)
{
	__libc_free(p);
}

__attribute__((noinline)) static void lose(void)
{
	void *p = malloc(4096);
	agree_escape(p);
}

int main(void)
{
	lose();
	agree_wipe_stack();
	agree_clear_scratch();
	return calls == 0;
}
