// cxx-leaks: C++ leaks with names to demangle.
//   shapes::Widget::make(int)            new Widget     1,112 bytes
//   shapes::make_buffer(unsigned long)   new char[]     2,222 bytes
//   shapes::leak_vector(int)             new std::vector<int>(1111):
//                                        the vector's buffer 4,444 bytes and
//                                        the vector object itself (24 bytes)
// A second Widget, buffer and vector are deleted.
#include <cstdio>
#include <cstring>
#include <vector>

namespace shapes {

struct Widget {
	char payload[1112];
	static Widget *make(int fill);
};

__attribute__((noinline)) Widget *Widget::make(int fill)
{
	Widget *w = new Widget; // LINE:widget-new
	std::memset(w->payload, fill, sizeof w->payload);
	return w;
}

__attribute__((noinline)) char *make_buffer(unsigned long n)
{
	char *b = new char[n]; // LINE:buffer-new
	std::memset(b, 0, n);
	return b;
}

__attribute__((noinline)) std::vector<int> *leak_vector(int n)
{
	return new std::vector<int>(n); // LINE:vector-new
}

} // namespace shapes

int main()
{
	shapes::Widget *kept = shapes::Widget::make(1);
	char *buf = shapes::make_buffer(2222);
	std::vector<int> *v = shapes::leak_vector(1111);

	delete shapes::Widget::make(2);
	delete[] shapes::make_buffer(3333);
	delete shapes::leak_vector(99);
	std::printf("%p %p %p %zu\n", (void *)kept, (void *)buf, (void *)v, v->size());
	return 0;
}
