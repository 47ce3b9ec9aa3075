/*
 * tstp-handler: an interactive program that, like an editor, handles
 * Ctrl-Z itself: it says so, stops with the default action, says when it
 * was continued, then echoes its input until end of file. Ctrl-C makes it
 * print "[int]" and exit 7.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static void say(const char *s, size_t n)
{
	if (write(1, s, n) != (ssize_t)n)
		_exit(2);
}

static void on_tstp(int sig)
{
	say("[tstp]\n", 7);
	signal(SIGTSTP, SIG_DFL);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &m, NULL);
	raise(SIGTSTP);
	signal(SIGTSTP, on_tstp);
	say("[cont]\n", 7);
}

static void on_int(int sig)
{
	say("[int]\n", 6);
	_exit(7);
}

int main(void)
{
	signal(SIGTSTP, on_tstp);
	signal(SIGINT, on_int);
	char *buf = malloc(100);
	ssize_t n;
	while ((n = read(0, buf, 100)) > 0)
		say(buf, (size_t)n);
	free(buf);
	return 0;
}
