/* zero-size: malloc(0) returns a block of 0 bytes (glibc: a unique
 * pointer); the program drops it. A lost object all the same: definitely
 * lost, 0 bytes in 1 object, and run exits 23 (as LeakSanitizer and
 * valgrind count it). */
#include <stdlib.h>

void *volatile keep;

int main(void)
{
	keep = malloc(0);
	keep = NULL;
	return 0;
}
