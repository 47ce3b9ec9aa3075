// hello-cc: a clean C++ program: iostream, a std::string too long for the
// small-string buffer, a std::vector, new/delete, new[]/delete[], and an
// exception thrown and caught (its object is allocated and freed by the
// C++ runtime).
#include <iostream>
#include <stdexcept>
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
	try {
		throw std::runtime_error(std::string(100, 'e'));
	} catch (const std::exception &e) {
		counts[0] += (int)std::string(e.what()).size();
	}
	std::cout << g->text << words.size() << std::endl;
	delete[] counts;
	delete g;
	return 0;
}
