/* hello: a clean C program; stdout's buffer is the only block live at exit. */
#include <stdio.h>

int main(void)
{
	printf("hello, world\n");
	return 0;
}
