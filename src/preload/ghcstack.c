/*
 * ghcstack.c - the Haskell stack of GHC code, for the unwinders: where the
 * C stack leaves GHC-compiled code, the Haskell call chain goes on in the
 * Haskell thread's own stack, which this walks from its stack pointer Sp.
 *
 * GHC code keeps Sp in %rbp, a register C code preserves, so the %rbp an
 * unwinder recovers at the first GHC frame is Sp - for an unsafe foreign
 * call, and for a safe one too (the call saves Sp in the thread's stack
 * object first, then calls out with %rbp unchanged; should a collection
 * by another thread move the stack meanwhile, the old copy is read, as
 * safely as any other memory).
 *
 * The stack is a sequence of frames, each starting with its info pointer:
 * the code of the continuation it returns to, with its info table (GHC 9,
 * x86-64, tables next to code) in the 16 bytes before that code - a
 * layout word, then the closure type in the low half of the next word. A
 * frame's size follows from its type as the runtime's stack_frame_sizeW()
 * computes it:
 *   RET_BIG           1 + the size word of its large bitmap (at the info
 *                     pointer plus the layout's low half, a signed offset);
 *   RET_FUN           3 + its own size field (the second word);
 *   other returns     1 + the low 6 bits of the layout (a small bitmap:
 *                     RET_SMALL, UPDATE_FRAME, CATCH_FRAME, STM frames);
 *   UNDERFLOW_FRAME   the stack goes on in the older chunk its second word
 *                     points to, at that StgStack's saved sp;
 *   STOP_FRAME        the bottom of the thread's stack.
 * Each return frame's info pointer is one frame of the chain, +1 as a
 * return address is (the symbolizer looks at the byte before it, which
 * must land in the continuation's code, not in the table before it).
 *
 * A frame whose only payload is a pointer to a function closure waits to
 * call that function with its result: the frame of a monadic bind, which
 * keeps the rest of the caller's do-block (unoptimized code binds through
 * base's bindIO, so the caller's own code is on no frame). That function's
 * code follows the frame in the chain, as the caller it stands for.
 *
 * Anything unexpected ends the walk: a word that is no code address of a
 * loaded module, a closure type that is not a frame (RET_BCO, interpreted
 * code, included), a size past LIMIT_WORDS. Every word is read through
 * lk_safe_word(), and the walk takes at most the frames asked for.
 */
#include "preload/preload.h"

/* closure types (GHC's rts/storage/ClosureTypes.h) */
#define RET_SMALL 30
#define RET_BIG 31
#define RET_FUN 32
#define UPDATE_FRAME 33
#define CATCH_FRAME 34
#define UNDERFLOW_FRAME 35
#define STOP_FRAME 36
#define ATOMICALLY_FRAME 55
#define CATCH_RETRY_FRAME 56
#define CATCH_STM_FRAME 57

#define FUN 8
#define FUN_STATIC 14

#define SMALL_BITMAP_SIZE 0x3f
#define SMALL_BITMAP_SHIFT 6
#define TAG_MASK 7
#define STACK_SP_OFFSET 16   /* StgStack: info, size and flags, sp */
#define LIMIT_WORDS (1u << 20)
#define LIMIT_CHUNKS 64

/* The closure type and layout word of the info table of info, a code
 * address of a loaded module (a frame's or a closure's); 0 or -1. */
static int frame_table(uintptr_t info, uint32_t *type, uintptr_t *layout)
{
	uintptr_t w;
	if (info < 16 || !lk_modules_contain(info) || lk_safe_word(info - 16, layout) != 0 ||
	    lk_safe_word(info - 8, &w) != 0)
		return -1;
	*type = (uint32_t)w;
	return 0;
}

/* The frame's size in words, 0 if it cannot be known. */
static uintptr_t frame_words(uintptr_t sp, uintptr_t info, uint32_t type, uintptr_t layout)
{
	uintptr_t w;
	switch (type) {
	case RET_BIG:
		if (lk_safe_word(info + (uintptr_t)(intptr_t)(int32_t)layout, &w) != 0)
			return 0;
		return w < LIMIT_WORDS ? 1 + w : 0;
	case RET_FUN:
		if (lk_safe_word(sp + 8, &w) != 0)
			return 0;
		return w < LIMIT_WORDS ? 3 + w : 0;
	case RET_SMALL:
	case UPDATE_FRAME:
	case CATCH_FRAME:
	case ATOMICALLY_FRAME:
	case CATCH_RETRY_FRAME:
	case CATCH_STM_FRAME:
		return 1 + (layout & SMALL_BITMAP_SIZE);
	}
	return 0;
}

/* The code of the function closure a frame of one pointer waits to call,
 * as a return address; 0 if it is no such frame. */
static uintptr_t bound_function(uintptr_t sp, uint32_t type, uintptr_t layout)
{
	uintptr_t closure, info, w;
	uint32_t ctype;
	if (type != RET_SMALL || (layout & SMALL_BITMAP_SIZE) != 1 ||
	    ((layout >> SMALL_BITMAP_SHIFT) & 1) || lk_safe_word(sp + 8, &closure) != 0 ||
	    lk_safe_word(closure & ~(uintptr_t)TAG_MASK, &info) != 0 ||
	    frame_table(info, &ctype, &w) != 0 || ctype < FUN || ctype > FUN_STATIC)
		return 0;
	return info + 1;
}

/* The saved sp of the older chunk an underflow frame at sp links to; 0 if
 * none can be read. */
static uintptr_t older_chunk(uintptr_t sp)
{
	uintptr_t stack, older;
	if (lk_safe_word(sp + 8, &stack) != 0 || lk_safe_word(stack + STACK_SP_OFFSET, &older) != 0 ||
	    (older & 7))
		return 0;
	return older;
}

LK_HIDDEN int lk_ghc_stack(uintptr_t sp, void **ips, int max)
{
	int n = 0, chunks = 0;
	while (n < max && sp && !(sp & 7)) {
		uintptr_t info, layout, words;
		uint32_t type;
		if (lk_safe_word(sp, &info) != 0 || frame_table(info, &type, &layout) != 0 ||
		    type == STOP_FRAME)
			break;
		if (type == UNDERFLOW_FRAME) {
			if (++chunks > LIMIT_CHUNKS)
				break;
			sp = older_chunk(sp);
			continue;
		}
		if (!(words = frame_words(sp, info, type, layout)))
			break;
		ips[n++] = (void *)(info + 1);
		uintptr_t fn = bound_function(sp, type, layout);
		if (fn && n < max)
			ips[n++] = (void *)fn;
		sp += words * sizeof(uintptr_t);
	}
	return n;
}
