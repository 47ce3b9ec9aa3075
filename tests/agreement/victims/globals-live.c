/*
 * globals-live.c - blocks held by an initialized global (.data) and by an
 * uninitialized one (.bss) at the end are still reachable. Mirrors LSan's
 * use_globals_initialized and use_globals_uninitialized.
 *
 * A correct checker: nothing lost; 2,675 bytes in 2 blocks still
 * reachable; exit status 0.
 *
 * EXPECT: still-reachable >=2675 >=2; rc 0
 */
#include "agree.h"

void *in_data = (void *)1;
void *in_bss;

int main(void)
{
	in_data = malloc(1337);
	in_bss = malloc(1338);
	agree_clear_scratch();
	return 0;
}
