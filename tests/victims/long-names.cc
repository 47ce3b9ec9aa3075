// long-names: C++ leaks under names too long for a column - a template
// instance with nested arguments and a method of a class in a long
// namespace - and a leaked std::vector<std::string> grown by push_back
// (std::vector<...>::_M_realloc_insert in its stack).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace an_unusually_long_namespace_name_for_a_test {
template <typename K, typename V>
struct registry_of_things_with_a_long_name {
	__attribute__((noinline)) static std::map<K, V> *make_the_registry_now(int n)
	{
		auto *m = new std::map<K, V>(); // LINE:registry
		for (int i = 0; i < n; i++)
			(*m)[K()] = V();
		return m;
	}
};
}

__attribute__((noinline)) static std::vector<std::string> *grow(int n)
{
	auto *v = new std::vector<std::string>();
	for (int i = 0; i < n; i++)
		v->push_back("a string long enough to be on the heap, not in the object");
	return v;
}

int main()
{
	using namespace an_unusually_long_namespace_name_for_a_test;
	void *a = registry_of_things_with_a_long_name<std::string, std::vector<int>>::make_the_registry_now(1);
	void *b = grow(3);
	std::printf("%p %p\n", a, b);
	return 0;
}
