/*
 * watch_serve.c - the small HTTP server of `leakscope watch --serve`: the
 * page of the last refresh (the HTML report of the trace so far, with
 * live.js: watch_page.c), its data alone, and the state the page asks for
 * every second (the view's JSON with the refresh's generation), answered
 * one connection at a time between refreshes; all made by the refresh,
 * nothing when asked. Nothing is served without the random token of the
 * address printed on start (403 Forbidden): a page on another site, or
 * another user of the machine, cannot read what the program allocates.
 * Listens on 127.0.0.1 unless an address is given.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/watch.h"

#define REQUEST_MAX 8192
#define CLIENT_MS 2000   /* a client that says nothing for this long is dropped */

struct lk_watch_server {
	int fd;
	char token[33];
	char url[160];
	unsigned long generation;   /* refreshes set: 0 before the first */
	struct lk_watch_page page;
	char *json;                 /* the view: {...} */
	size_t len;
};

/* "[ADDR:]PORT" into addr (network order). 0 or -1. */
static int parse_spec(const char *spec, struct sockaddr_in *addr, int *explicit_addr)
{
	const char *colon = strrchr(spec, ':'), *port = colon ? colon + 1 : spec;
	char host[64] = "127.0.0.1", *end;
	*explicit_addr = colon != NULL;
	if (colon && (colon == spec || (size_t)(colon - spec) >= sizeof(host)))
		return -1;
	if (colon)
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	if (!strcmp(host, "localhost"))
		snprintf(host, sizeof(host), "127.0.0.1");
	errno = 0;
	long p = strtol(port, &end, 10);
	if (!*port || *end || errno || p < 0 || p > 65535)
		return -1;
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_port = htons((uint16_t)p);
	return inet_pton(AF_INET, host, &addr->sin_addr) == 1 ? 0 : -1;
}

static int make_token(char *out)
{
	unsigned char b[16];
	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return -1;
	for (size_t i = 0; i < sizeof(b); i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	return 0;
}

int lk_watch_serve(const char *spec, struct lk_watch_server **out)
{
	struct sockaddr_in a;
	int explicit_addr, one = 1;
	if (parse_spec(spec, &a, &explicit_addr))
		return lk_cli_usage_error("watch", "--serve wants [ADDR:]PORT (ADDR an IPv4 "
					  "address), not '%s'", spec);
	struct lk_watch_server *s = calloc(1, sizeof(*s));
	if (!s || make_token(s->token)) {
		lk_cli_error("watch: cannot make the page's token: %s",
			     lk_cli_errtext(s ? -errno : -ENOMEM));
		free(s);
		return 1;
	}
	socklen_t len = sizeof(a);
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->fd < 0 || setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s->fd, (struct sockaddr *)&a, sizeof(a)) || listen(s->fd, 16) ||
	    getsockname(s->fd, (struct sockaddr *)&a, &len)) {
		lk_cli_error("watch: cannot serve on '%s': %s", spec, lk_cli_errtext(-errno));
		if (s->fd >= 0)
			close(s->fd);
		free(s);
		return 1;
	}
	char host[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, &a.sin_addr, host, sizeof(host));
	snprintf(s->url, sizeof(s->url), "http://%s:%u/?token=%s", host, ntohs(a.sin_port), s->token);
	if (explicit_addr && (ntohl(a.sin_addr.s_addr) >> 24) != 127)
		lk_cli_error("watch: warning: serving on %s, not on the loopback: whoever reaches "
			     "it with the token reads the page", host);
	*out = s;
	return 0;
}

const char *lk_watch_server_url(const struct lk_watch_server *s)
{
	return s->url;
}

void lk_watch_server_set(struct lk_watch_server *s, struct lk_watch_page *page, char *json,
			 size_t len)
{
	lk_watch_page_release(&s->page);
	s->page = *page;
	memset(page, 0, sizeof(*page));
	free(s->json);
	s->json = json;
	s->len = len;
	s->generation++;
}

static void send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w <= 0)
			return;   /* the client left: nothing to say to anyone */
		p += w;
		n -= (size_t)w;
	}
}

/* An answer whose body is the parts of body, one after the other. */
static void answer_parts(int fd, int code, const char *type, const struct iovec *body, int parts)
{
	char head[512];
	size_t len = 0;
	for (int i = 0; i < parts; i++)
		len += body[i].iov_len;
	const char *what = code == 200 ? "OK" : code == 403 ? "Forbidden" :
			   code == 404 ? "Not Found" :
			   "Bad Request";
	int n = snprintf(head, sizeof(head),
			 "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			 "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
			 "Referrer-Policy: no-referrer\r\nConnection: close\r\n\r\n",
			 code, what, type, len);
	send_all(fd, head, (size_t)n);
	for (int i = 0; i < parts; i++)
		send_all(fd, body[i].iov_base, body[i].iov_len);
}

static void answer(int fd, int code, const char *type, const char *body, size_t len)
{
	struct iovec part = {(void *)body, len};
	answer_parts(fd, code, type, &part, 1);
}

/* "/": the page, its data element told its generation (live.js reads it);
 * before the first refresh, a page that asks again every second. */
static void send_page(struct lk_watch_server *s, int fd)
{
	static const char waiting[] =
		"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta http-equiv=\"refresh\" content=\"1\"><title>leakscope watch</title></head>"
		"<body><p>leakscope watch: waiting for the trace</p></body></html>\n";
	if (!s->page.html) {
		answer(fd, 200, "text/html; charset=utf-8", waiting, sizeof(waiting) - 1);
		return;
	}
	char attr[64];   /* replaces the '>' that closes the data's start tag */
	int n = snprintf(attr, sizeof(attr), " data-generation=\"%lu\">", s->generation);
	struct iovec parts[] = {
		{s->page.html, s->page.data - 1},
		{attr, (size_t)n},
		{s->page.html + s->page.data, s->page.len - s->page.data},
	};
	answer_parts(fd, 200, "text/html; charset=utf-8", parts, 3);
}

/* "/state": the view with the generation of the page's data first. */
static void send_state(struct lk_watch_server *s, int fd)
{
	char gen[64];
	if (!s->json) {
		int n = snprintf(gen, sizeof(gen), "{\"generation\":0,\"waiting\":true}\n");
		answer(fd, 200, "application/json", gen, (size_t)n);
		return;
	}
	int n = snprintf(gen, sizeof(gen), "{\"generation\":%lu,", s->generation);
	struct iovec parts[] = {{gen, (size_t)n}, {s->json + 1, s->len - 1}};
	answer_parts(fd, 200, "application/json", parts, 2);
}

/* Whether query ("a=b&token=T...") carries token. */
static int has_token(const char *query, const char *token)
{
	size_t n = strlen(token);
	for (const char *q = query; q && *q;) {
		if (!strncmp(q, "token=", 6)) {
			const char *v = q + 6;
			size_t len = strcspn(v, "&");
			unsigned diff = len != n;
			for (size_t i = 0; i < n && i < len; i++)
				diff |= (unsigned)(v[i] ^ token[i]);
			return !diff;
		}
		q = strchr(q, '&');
		if (q)
			q++;
	}
	return 0;
}

/* Read the request head (until an empty line), at most REQUEST_MAX
 * bytes, waiting at most CLIENT_MS. Its length, or -1. */
static int read_head(int fd, char *buf, size_t size)
{
	size_t n = 0;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	while (n + 1 < size) {
		if (poll(&p, 1, CLIENT_MS) <= 0)
			return -1;
		ssize_t r = recv(fd, buf + n, size - 1 - n, 0);
		if (r <= 0)
			return -1;
		n += (size_t)r;
		buf[n] = 0;
		if (strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n"))
			return (int)n;
	}
	return -1;
}

static void serve_one(struct lk_watch_server *s, int fd)
{
	static const char forbidden[] = "forbidden: this page wants the token leakscope printed\n";
	char req[REQUEST_MAX], path[REQUEST_MAX];
	if (read_head(fd, req, sizeof(req)) < 0 || sscanf(req, "GET %8000s HTTP/", path) != 1) {
		answer(fd, 400, "text/plain", "bad request\n", 12);
		return;
	}
	char *query = strchr(path, '?');
	if (query)
		*query++ = 0;
	if (!has_token(query, s->token)) {
		answer(fd, 403, "text/plain", forbidden, sizeof(forbidden) - 1);
		return;
	}
	if (!strcmp(path, "/")) {
		send_page(s, fd);
	} else if (!strcmp(path, "/data")) {
		static const char none[] = "{\"waiting\":true}\n";
		answer(fd, 200, "application/json", s->page.html ? s->page.html + s->page.data : none,
		       s->page.html ? s->page.data_len : sizeof(none) - 1);
	} else if (!strcmp(path, "/state")) {
		send_state(s, fd);
	} else {
		answer(fd, 404, "text/plain", "not found\n", 10);
	}
}

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void lk_watch_server_wait(struct lk_watch_server *s, int ms)
{
	long end = now_ms() + ms;
	for (long left = ms; left > 0; left = end - now_ms()) {
		struct pollfd p = {.fd = s->fd, .events = POLLIN};
		int r = poll(&p, 1, (int)left);
		if (r < 0)
			return;   /* a signal: the caller looks */
		if (r == 0)
			continue;
		int c = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		serve_one(s, c);
		shutdown(c, SHUT_WR);
		close(c);
	}
}

void lk_watch_server_close(struct lk_watch_server *s)
{
	close(s->fd);
	lk_watch_page_release(&s->page);
	free(s->json);
	free(s);
}
