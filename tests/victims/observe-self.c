/*
 * observe-self: print everything of its own process state that a tracer
 * or an interposer could change - descriptors, signal dispositions and
 * mask, rlimits, process group and session (relative to its parent),
 * umask, environment (leakscope's documented variables left out), loaded
 * libraries (libleakscope.so left out), dumpable, no_new_privs, parent
 * death signal - then act like a daemon that closes every inherited
 * descriptor and reuses the low numbers for pipes and files while it
 * allocates: the bytes it reads back must be exactly those it wrote.
 * The output must be the same with and without leakscope.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static void descriptors(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int skip = dirfd(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != skip)
			printf("fd %s flags %d\n", e->d_name, fcntl(atoi(e->d_name), F_GETFD));
	closedir(d);
}

static void signals(void)
{
	sigset_t mask;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (sigaction(s, NULL, &sa) != 0)
			continue;
		if (sa.sa_handler != SIG_DFL)
			printf("signal %d disposition %s\n", s,
			       sa.sa_handler == SIG_IGN ? "ignored" : "handled");
		if (sigismember(&mask, s))
			printf("signal %d blocked\n", s);
	}
}

static void limits(void)
{
	for (int r = 0; r < RLIM_NLIMITS; r++) {
		struct rlimit l;
		if (getrlimit(r, &l) == 0)
			printf("rlimit %d %llu %llu\n", r, (unsigned long long)l.rlim_cur,
			       (unsigned long long)l.rlim_max);
	}
}

static void process(void)
{
	pid_t pp = getppid();
	printf("pgrp same as parent's: %d\n", getpgrp() == getpgid(pp));
	printf("session same as parent's: %d\n", getsid(0) == getsid(pp));
	printf("foreground of its terminal: %d\n", tcgetpgrp(0) == getpgrp());
	mode_t m = umask(0);
	umask(m);
	printf("umask %o\n", (unsigned)m);
	printf("dumpable %d no_new_privs %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0),
	       prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	int pdeath = 0;
	prctl(PR_GET_PDEATHSIG, &pdeath, 0, 0, 0);
	printf("parent death signal %d\n", pdeath);
}

static int documented(const char *var)
{
	return strncmp(var, "LD_PRELOAD=", 11) == 0 || strncmp(var, "LEAKSCOPE_", 10) == 0;
}

static void environment(void)
{
	for (char **e = environ; *e; e++)
		if (!documented(*e))
			printf("env %s\n", *e);
}

static void libraries(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024], last[1024] = "";
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');
		if (!path || !strstr(path, ".so") || strstr(path, "libleakscope.so"))
			continue;
		if (strcmp(path, last) != 0)
			printf("library %s", path);
		snprintf(last, sizeof(last), "%s", path);
	}
	fclose(f);
}

/* Close everything, reuse 3.. for pipes and a file, allocate between. */
static int daemon_io(const char *dir)
{
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	int p[2];
	if (pipe(p) != 0)
		return 1;
	printf("pipe on %d %d\n", p[0], p[1]);
	char path[512];
	snprintf(path, sizeof(path), "%s/observe-self.out", dir);
	int f = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	printf("file on %d\n", f);
	char want[4000], from_pipe[4096], from_file[4096];
	for (size_t i = 0; i < sizeof(want); i++)
		want[i] = (char)('a' + i % 26);
	void *keep[200];
	for (int i = 0; i < 200; i++) {
		keep[i] = malloc(16 + (size_t)i * 40);
		if (i % 10 == 0 && (write(p[1], want + i * 20, 200) != 200 ||
				    write(f, want + i * 20, 200) != 200))
			return 1;
	}
	for (int i = 0; i < 200; i++)
		free(keep[i]);
	close(p[1]);
	ssize_t n = read(p[0], from_pipe, sizeof(from_pipe));
	lseek(f, 0, SEEK_SET);
	ssize_t m = read(f, from_file, sizeof(from_file));
	printf("pipe read %zd file read %zd\n", n, m);
	for (int i = 0, at = 0; i < 200; i += 10, at += 200)
		if (memcmp(from_pipe + at, want + i * 20, 200) != 0 ||
		    memcmp(from_file + at, want + i * 20, 200) != 0) {
			printf("bytes differ at %d\n", at);
			return 1;
		}
	close(f);
	unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	descriptors();
	signals();
	limits();
	process();
	environment();
	libraries();
	fflush(stdout);
	return daemon_io(argc > 1 ? argv[1] : "/tmp") ? 3 : 0;
}
