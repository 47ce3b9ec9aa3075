/*
 * uintptr-array.c - 1,024 blocks whose addresses a global array keeps as
 * integers (uintptr_t): an integer holding an address is a reference all
 * the same. Mirrors LSan's user_pointer.
 *
 * A correct checker: nothing lost; 8,192 bytes in 1,024 blocks still
 * reachable; exit status 0.
 *
 * EXPECT: still-reachable >=8192 >=1024; rc 0
 */
#include <stdint.h>

#include "agree.h"

uintptr_t as_numbers[1024];

int main(void)
{
	for (int i = 0; i < 1024; i++)
		as_numbers[i] = (uintptr_t)malloc(sizeof(int *));
	agree_clear_scratch();
	return 0;
}
