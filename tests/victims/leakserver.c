/*
 * leakserver.c - a small HTTP-like server that leaks a fixed number of bytes
 * per request (remember_client: one 640-byte block), and its non-leaking
 * twin (--no-leak), plus the client that drives it.
 *
 *   leakserver serve PORTFILE [--no-leak]  listen on 127.0.0.1 (port written
 *                                          to PORTFILE); "GET /quit" ends it
 *   leakserver get PORT PATH [N]           send N requests, one connection each
 *
 * Every request also makes temporary allocations whose sizes depend on the
 * request (parsing, the response buffer), so that the leak has company.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LEAK_BYTES 640

struct client_note {
	char peer[64];
	unsigned long request_no;
	char scratch[LEAK_BYTES - 64 - sizeof(unsigned long)];
};

static int no_leak;
static unsigned long requests;

static struct client_note *remember_client(unsigned long no)
{
	struct client_note *n = malloc(sizeof(*n));       /* LINE:leak */
	snprintf(n->peer, sizeof(n->peer), "127.0.0.1 #%lu", no);
	n->request_no = no;
	memset(n->scratch, 'x', sizeof(n->scratch));
	return n;
}

static char *build_response(const char *path)
{
	size_t cap = 64, len = 0;
	char *out = malloc(cap);
	const char *parts[] = {"HTTP/1.0 200 OK\r\n", "Content-Type: text/plain\r\n\r\n",
			       "you asked for ", path, "\n"};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		size_t n = strlen(parts[i]);
		while (len + n + 1 > cap)
			out = realloc(out, cap *= 2);
		memcpy(out + len, parts[i], n + 1);
		len += n;
	}
	return out;
}

/* One request; returns 0 when asked to quit. */
static int serve_one(int fd)
{
	char *line = malloc(4096);
	ssize_t n = read(fd, line, 4095);
	line[n > 0 ? n : 0] = 0;
	char *path = strdup(strchr(line, ' ') ? strchr(line, ' ') + 1 : "/");
	path[strcspn(path, " \r\n")] = 0;
	int quit = !strcmp(path, "/quit");
	if (!quit) {
		struct client_note *note = remember_client(++requests);
		char *resp = build_response(path);
		if (write(fd, resp, strlen(resp)) < 0)
			perror("write");
		free(resp);
		if (no_leak)
			free(note);
	}
	free(path);
	free(line);
	return !quit;
}

static int serve(const char *portfile)
{
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 16) ||
	    getsockname(ls, (struct sockaddr *)&sa, &len)) {
		perror("listen");
		return 1;
	}
	FILE *f = fopen(portfile, "w");
	fprintf(f, "%d\n", ntohs(sa.sin_port));
	fclose(f);
	for (;;) {
		int fd = accept(ls, NULL, NULL);
		if (fd < 0)
			continue;
		int go_on = serve_one(fd);
		close(fd);
		if (!go_on)
			break;
	}
	close(ls);
	printf("served %lu requests\n", requests);
	return 0;
}

static int get(int port, const char *path, int count)
{
	for (int i = 0; i < count; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			perror("connect");
			return 1;
		}
		char req[512], buf[512];
		snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\n\r\n", path);
		if (write(fd, req, strlen(req)) < 0)
			return 1;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "serve")) {
		no_leak = argc > 3 && !strcmp(argv[3], "--no-leak");
		return serve(argv[2]);
	}
	if (argc >= 4 && !strcmp(argv[1], "get"))
		return get(atoi(argv[2]), argv[3], argc > 4 ? atoi(argv[4]) : 1);
	fprintf(stderr, "usage: leakserver serve PORTFILE [--no-leak] | get PORT PATH [N]\n");
	return 2;
}
