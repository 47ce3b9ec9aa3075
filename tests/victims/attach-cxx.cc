// attach-cxx.cc - a C++ server leakscope does not start, for attach: it
// prints "ready PID" and answers each line on stdin; "req" makes
// handle_request() leak one Widget (new, 48 bytes), one int[10] (new[],
// 40 bytes) and one 64-aligned Block (aligned new, 128 bytes), and
// delete the temporaries it made with the sized and aligned forms; "go"
// ends it with "done N".
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

struct Widget {
	long a[6];
};
struct alignas(64) Block {
	char b[128];
};

static void *volatile sink;

__attribute__((noinline)) static void handle_request(const std::string &line)
{
	sink = new Widget{};
	sink = new int[10]();
	sink = new Block{};
	Widget *t = new Widget{};
	Block *u = new Block{};
	std::string *s = new std::string(line + " temporary, long enough to be on the heap");
	delete t;                   // sized delete
	delete u;                   // aligned delete
	delete s;
}

int main()
{
	char buf[256];
	long n = 0;
	std::printf("ready %d\n", (int)getpid());
	std::fflush(stdout);
	while (std::fgets(buf, sizeof(buf), stdin) && std::strcmp(buf, "go\n")) {
		handle_request(buf);
		std::printf("ok %ld\n", ++n);
		std::fflush(stdout);
	}
	sink = nullptr;
	std::printf("done %ld\n", n);
	return 0;
}
