/*
 * pool-interior.c - a program's own pool: a 24-byte pool descriptor owns a
 * 4,096-byte buffer (both from malloc), objects are carved from the
 * buffer after a 16-byte header, and a global array keeps pointers to
 * the objects - into the middle of the buffer only. The descriptor's
 * pointer is dropped. The buffer is reached from a root through interior
 * pointers only (possibly lost: they might be stray numbers); the
 * descriptor is lost. Mirrors the malloc side of valgrind's leak-pool,
 * mempool and leak-autofreepool (their custom-pool client requests have
 * no counterpart here: the objects are not heap blocks).
 *
 * A correct checker: definitely lost 24 bytes in 1 block; possibly lost
 * 4,096 in 1; exit status 23. LeakSanitizer, which takes an interior
 * pointer for a pointer, must report the descriptor only.
 *
 * EXPECT: definitely-lost 24 1; possibly-lost 4096 1; rc 23
 */
#include "agree.h"

struct pool {
	size_t size, used;
	char *buf;
};

void *cells[100];

static void *carve(struct pool *p, size_t n)
{
	void *c = p->buf + p->used;
	p->used += n;
	return c;
}

__attribute__((noinline)) static void make_pool(void)
{
	struct pool *p = malloc(sizeof(*p));
	p->size = 4096;
	p->used = 16;
	p->buf = calloc(1, p->size);
	for (int i = 0; i < 100; i++)
		cells[i] = carve(p, 32);
	agree_escape(p);
}

int main(void)
{
	make_pool();
	agree_wipe_stack();
	agree_clear_scratch();
	return 0;
}
