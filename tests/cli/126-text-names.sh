# 126: C++ names in the text report are shortened where they are long:
# template arguments and parameter lists with nested brackets become
# "<…>" and "(…)", short ones stay ("(unsigned long)", "<int>"), a return
# type the demangler wrote first is left out, and a name still longer
# than its column is cut in its middle - every frame of a stack keeps its
# file:line in one column. The JSON report has the whole names.
. "$(dirname "$0")/../lib.sh"
v=$(victim long-names) || exit
src=$ROOT/tests/victims/long-names.cc
"$LEAKSCOPE" run --top 0 -- "$v" > /dev/null 2> "$T/r.txt"
expect_grep "$T/r.txt" '#[0-9]+ +std::vector<…>::_M_realloc_insert<…>\(…\) +vector\.tcc:'
expect_grep "$T/r.txt" '#[0-9]+ +std::vector<…>::push_back\(…\) '
expect_grep "$T/r.txt" '#0  operator new\(unsigned long\) '
expect_grep "$T/r.txt" '#[0-9]+ +std::_Vector_base<…>::_M_allocate\(unsigned long\) '
grep -q 'std::allocator<' "$T/r.txt" && fail "a template argument list is shown whole"
grep -Eq '#[0-9]+ +void ' "$T/r.txt" && fail "a return type is shown"
# the long method: its start and its end, cut in the middle, within 64 columns
line=$(marker "$src" registry)
expect_grep "$T/r.txt" "#1  an_unusually_long_names[a-z_]*…[a-z_]*<…>::make_the_registry_now\\(int\\) long-names\\.cc:$line "
# within each stack, file:line starts in one column ("…" is one column)
sed 's/…/./g' "$T/r.txt" | awk '
	/ allocated from:$/ { col = 0; next }
	/^    #[0-9]/ {
		i = match($0, / [a-z_.-]+\.(cc|h|tcc):[0-9]+ /)
		if (!i) next
		if (col && i != col) { print "column " i " not " col ": " $0; bad = 1 }
		col = i
		match($0, /^    #[0-9]+ +/)
		if (i - 1 - RLENGTH > 64) { print "wider than 64 columns: " $0; bad = 1 }
	}
	END { exit bad }' || fail "the columns of a stack do not hold"

# the JSON: whole names
ls_run "$T/r.json" -- "$v"
expect_json "$T/r.json" 'all_leaks | any(.[]; fn_prefix("void std::vector<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::allocator<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > >::_M_realloc_insert<"))'
expect_json "$T/r.json" 'all_leaks | any(.[]; fn_prefix("an_unusually_long_namespace_name_for_a_test::registry_of_things_with_a_long_name<std::__cxx11::basic_string<"))'

# short parameter lists and template arguments stay
c=$(victim cxx-leaks) || exit
"$LEAKSCOPE" run -- "$c" > /dev/null 2> "$T/c.txt"
expect_grep "$T/c.txt" '#1  shapes::make_buffer\(unsigned long\) '
expect_grep "$T/c.txt" '#[0-9]+ +std::vector<…>::vector\(…\) '
expect_grep "$T/c.txt" '#[0-9]+ +std::__new_allocator<int>::allocate\(…\) '
exit 0
