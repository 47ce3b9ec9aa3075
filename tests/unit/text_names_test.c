/* text_names_test.c - names as the text reports show them (short C++
 * names, names cut in the middle) and the frames generated suppressions
 * skip as allocation wrappers. */
#include <string.h>

#include "analyze/alloc_frames.h"
#include "report/short_name.h"
#include "tap.h"

static int shortens(const char *name, const char *want)
{
	char buf[512];
	size_t n = lk_short_name(name, buf, sizeof(buf));
	if (n != strlen(want) || strcmp(buf, want)) {
		printf("# '%s' -> '%s', not '%s'\n", name, buf, want);
		return 0;
	}
	return 1;
}

static void short_names(void)
{
	ok(shortens("void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>"
		    "(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, "
		    "int const&)", "std::vector<…>::_M_realloc_insert<int const&>(…)"),
	   "vector's _M_realloc_insert");
	ok(shortens("shapes::make_buffer(unsigned long)", "shapes::make_buffer(unsigned long)"),
	   "a short parameter list stays");
	ok(shortens("std::__new_allocator<int>::allocate(unsigned long, void const*)",
		    "std::__new_allocator<int>::allocate(…)"), "a long one does not");
	ok(shortens("operator new(unsigned long)", "operator new(unsigned long)"), "operator new");
	ok(shortens("std::map<int, int>::operator[](int const&)", "std::map<int, int>::operator[](int const&)"),
	   "operator[]");
	ok(shortens("bool std::operator< <char>(std::basic_string<char> const&, char const*)",
		    "std::operator< <char>(…)"), "operator<");
	ok(shortens("foo::operator()(std::vector<int, std::allocator<int> >&) const",
		    "foo::operator()(…) const"), "operator() const");
	ok(shortens("(anonymous namespace)::helper(int)", "(anonymous namespace)::helper(int)"),
	   "an anonymous namespace");
	ok(shortens("main.(*Server).handle", "main.(*Server).handle"), "Go's method name");
	ok(shortens("main", "main"), "C");
	ok(shortens("base:Foreign.Marshal.Alloc.mallocBytes1", "base:Foreign.Marshal.Alloc.mallocBytes1"),
	   "GHC");
	ok(shortens("std::vector<int", "std::vector<int"), "an unclosed bracket stays");
	ok(shortens("<alloc::raw_vec::RawVecInner>::finish_grow", "<alloc::raw_vec::RawVecInner>::finish_grow"),
	   "Rust's <T>::f");
	ok(shortens("<T as alloc::vec::spec_from_elem::SpecFromElem>::from_elem",
		    "<T as alloc::vec::spec_from_elem::SpecFromElem>::from_elem"), "Rust's <T as Trait>::f");
	ok(shortens("<std::vector<int, std::allocator<int> > as Foo>::f",
		    "<std::vector<…> as Foo>::f"), "... shortened inside");
}

static void cut_middle(void)
{
	char s[64] = "abcdefghijklmnopqrstuvwxyz";
	size_t n = lk_cut_middle(s, strlen(s), 10, 4);
	ok(!strcmp(s, "abcd…vwxyz") && n == strlen(s), "cut to 10 columns: %s", s);
	ok(lk_text_columns(s, n) == 10, "10 columns");
	strcpy(s, "short");
	ok(lk_cut_middle(s, 5, 10, 4) == 5 && !strcmp(s, "short"), "a short text stays");
	strcpy(s, "a<…>b<…>cdefghij");
	n = lk_cut_middle(s, strlen(s), 8, 3);
	ok(lk_text_columns(s, n) == 8, "cut a text with '…' in it: %s", s);
}

static int wrapper(const char *function, const char *module)
{
	struct lk_frame_text f = {.function = (char *)function, .module = (char *)module};
	return lk_alloc_frame(&f);
}

static void wrappers(void)
{
	ok(wrapper("xmalloc", "prog") && wrapper("xstrdup", "prog") && wrapper("g_malloc0", "prog"),
	   "xmalloc, xstrdup, g_malloc0");
	ok(wrapper("operator new(unsigned long)", "prog"), "operator new");
	ok(wrapper("std::vector<int, std::allocator<int> >::push_back(int const&)", "prog"),
	   "the C++ library");
	ok(wrapper("_cgo_d1f148629035_Cfunc__Cmalloc", "prog") && wrapper("main._cgo_cmalloc", "prog") &&
	   wrapper("runtime.asmcgocall.abi0", "prog"), "cgo's C.malloc");
	ok(wrapper("base:Foreign.Marshal.Alloc.mallocBytes1", "prog"), "GHC's mallocBytes");
	ok(wrapper("<alloc::raw_vec::RawVecInner>::finish_grow", "prog") &&
	   wrapper("alloc::vec::from_elem", "prog") &&
	   wrapper("<T as alloc::vec::spec_from_elem::SpecFromElem>::from_elem", "prog"),
	   "Rust's allocator and collections");
	ok(wrapper("anything", "libc.so.6"), "the C library");
	ok(!wrapper("make_table", "prog") && !wrapper("main.leak", "prog") &&
	   !wrapper("shapes::Widget::make(int)", "prog") && !wrapper("_cgo_2e9f1ad12de8_Cfunc_hello", "prog"),
	   "the program's functions");
	struct lk_frame_text f[] = {{.function = "malloc", .module = "libc.so.6"},
				    {.function = "xmalloc", .module = "p"},
				    {.module = "p"}, {.function = "caller", .module = "p"}};
	ok(lk_alloc_caller(f, 4) == 3, "the caller: the first named frame past the wrappers");
	ok(lk_alloc_caller(f, 2) == 2, "none: n");
}

int main(void)
{
	short_names();
	cut_middle();
	wrappers();
	return tap_done();
}
