/*
 * closefds: what daemons do at start - close every descriptor above 2 and
 * point 0-2 at /dev/null - between two leaks: 5,150 bytes before
 * (leak_before_close), 5,151 after (leak_after_close). Both must be seen.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static void *leak_before_close(void)
{
	return memset(malloc(5150), 1, 5150);
}

__attribute__((noinline)) static void *leak_after_close(void)
{
	return memset(malloc(5151), 2, 5151);
}

int main(void)
{
	void *a = leak_before_close();
	int fd;

	printf("%p\n", a);
	fflush(stdout);
	for (fd = 3; fd < 4096; fd++)
		close(fd);
	fd = open("/dev/null", O_RDWR);
	dup2(fd, 0);
	dup2(fd, 1);
	if (fd > 2)
		close(fd);
	void *b = leak_after_close();
	/* allocate and free some more, as a daemon would go on to do */
	for (int i = 0; i < 1000; i++)
		free(malloc(100 + i));
	printf("%p\n", b);
	return 0;
}
