/*
 * ghcstack_test.c - the Haskell stack walk of the interposer
 * (src/preload/ghcstack.c) on stacks laid out here as GHC 9 lays them out
 * on x86-64: return frames of every kind of size (small bitmap, large
 * bitmap, RET_FUN, update and catch frames), a bind frame holding a
 * function closure, an underflow frame into an older chunk, the stop
 * frame; then the ways a walk must end early (the frame budget, a word
 * that is no code, a closure type that is no frame, an unreadable or
 * misaligned stack pointer).
 */
#include <stdint.h>
#include <string.h>

#include "preload/preload.h"
#include "tap.h"

/* The fake "code" of the module table: info tables and their code. */
static uintptr_t code[64];

int lk_modules_contain(uint64_t ip)
{
	return ip >= (uintptr_t)code && ip < (uintptr_t)(code + 64);
}

static int next_table;

/* An info table (layout word, closure type) followed by its code; the info
 * pointer, which points at that code. */
static uintptr_t table(uintptr_t layout, uint32_t type)
{
	uintptr_t *t = &code[next_table];
	t[0] = layout;
	t[1] = type;
	t[2] = 0xc3; /* the code: a ret */
	next_table += 3;
	return (uintptr_t)&t[2];
}

#define SMALL(size, bits) ((uintptr_t)(bits) << 6 | (size))

static int expect(const char *what, uintptr_t sp, int max, const uintptr_t *want, int nwant)
{
	void *ips[32];
	int n = lk_ghc_stack(sp, ips, max);
	int same = n == nwant;
	for (int i = 0; same && i < n; i++)
		same = (uintptr_t)ips[i] == want[i] + 1;
	ok(same, "%s: %d frames (want %d)", what, n, nwant);
	return same;
}

int main(void)
{
	uintptr_t ret_small = table(SMALL(2, 3), 30), ret_bind = table(SMALL(1, 0), 30);
	uintptr_t fun = table(0, 9 /* FUN_1_0 */), ret_fun = table(0, 32);
	uintptr_t upd = table(SMALL(1, 0), 33), catch = table(SMALL(2, 1), 34);
	uintptr_t underflow = table(SMALL(1, 0), 35), stop = table(0, 36);
	uintptr_t bco = table(0, 29), older_small = table(SMALL(1, 1), 30);
	/* RET_BIG: its layout is the offset from the info pointer to the bitmap */
	static uintptr_t big_bitmap[2] = {3, 0x5};
	uintptr_t *bt = &code[next_table];
	next_table += 3;
	bt[1] = 31;
	uintptr_t ret_big = (uintptr_t)&bt[2];
	bt[0] = (uintptr_t)(uint32_t)(int32_t)((intptr_t)big_bitmap - (intptr_t)ret_big);

	static uintptr_t closure[2];
	closure[0] = fun;

	/* the older chunk, and its StgStack (info, size and flags, sp) */
	static uintptr_t older[8], chunk[3];
	older[0] = older_small;
	older[1] = 7;
	older[2] = catch;
	older[3] = 0;
	older[4] = 0;
	older[5] = stop;
	chunk[2] = (uintptr_t)older;

	static uintptr_t stk[32];
	int k = 0;
	stk[k++] = ret_small;
	stk[k++] = 1;
	stk[k++] = 2;
	stk[k++] = ret_bind;
	stk[k++] = (uintptr_t)closure | 1; /* a tagged pointer */
	stk[k++] = ret_big;
	stk[k++] = 1;
	stk[k++] = 2;
	stk[k++] = 3;
	stk[k++] = ret_fun;
	stk[k++] = 2; /* its size */
	stk[k++] = (uintptr_t)closure;
	stk[k++] = 4;
	stk[k++] = 5;
	stk[k++] = upd;
	stk[k++] = 0;
	stk[k++] = underflow;
	stk[k++] = (uintptr_t)chunk;
	stk[k++] = ret_small; /* past the underflow frame: never read */

	uintptr_t all[] = {ret_small, ret_bind, fun, ret_big, ret_fun, upd, older_small, catch};
	int nall = (int)(sizeof(all) / sizeof(all[0]));
	expect("every kind of frame, through an older chunk, to the stop frame",
	       (uintptr_t)stk, 32, all, nall);
	expect("at most max frames", (uintptr_t)stk, 3, all, 3);
	expect("sp at the bind frame", (uintptr_t)&stk[3], 32, all + 1, nall - 1);

	uintptr_t saved = stk[9];
	stk[9] = 0x1234; /* no code: the walk ends there */
	expect("a word that is no info pointer ends the walk", (uintptr_t)stk, 32, all, 4);
	stk[9] = bco;
	expect("a closure type that is no frame ends the walk", (uintptr_t)stk, 32, all, 4);
	stk[9] = saved;

	stk[4] = (uintptr_t)stk | 1; /* the bind frame's pointer is no function */
	uintptr_t no_fun[] = {ret_small, ret_bind, ret_big};
	expect("a bind frame without a function closure", (uintptr_t)stk, 3, no_fun, 3);
	stk[4] = (uintptr_t)closure | 1;

	expect("a misaligned sp", (uintptr_t)stk + 4, 32, NULL, 0);
	expect("an unmapped sp", 0x10000, 32, NULL, 0);
	chunk[2] = 0x10000;
	expect("an unreadable older chunk", (uintptr_t)stk, 32, all, 6);
	return tap_done();
}
