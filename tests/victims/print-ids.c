/* print-ids: its real and effective user ids (installed setuid root by a
 * test: the effective id says whether the privileges were kept). */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("uid %d euid %d\n", (int)getuid(), (int)geteuid());
	return 0;
}
