// hello-cc: a clean C++ program: iostream, a std::string too long for the
// small-string buffer, a std::vector, and new/delete, new[]/delete[].
#include <iostream>
#include <string>
#include <vector>

struct Greeting {
	std::string text;
	explicit Greeting(const std::string &who) : text("hello, " + who + "! ") {}
};

int main()
{
	Greeting *g = new Greeting(std::string(64, 'w'));
	int *counts = new int[100]();
	std::vector<std::string> words{"a fairly long word to defeat the small string buffer", "b"};

	for (const auto &w : words)
		counts[w.size() % 100]++;
	std::cout << g->text << words.size() << std::endl;
	delete[] counts;
	delete g;
	return 0;
}
