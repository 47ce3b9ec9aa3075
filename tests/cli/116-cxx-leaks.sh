# cxx-leaks: C++ leaks reported under demangled names - new in
# shapes::Widget::make(int) (1,112 bytes), new[] in
# shapes::make_buffer(unsigned long) (2,222), and a leaked
# std::vector<int>(1111): its 4,444-byte buffer, allocated through the
# vector's constructor called by shapes::leak_vector(int), and the 24-byte
# vector object. The deleted twins are not reported.
. "$(dirname "$0")/../lib.sh"
v=$(victim cxx-leaks) || exit
src=$ROOT/tests/victims/cxx-leaks.cc
ls_run "$T/r.json" -- "$v"
expect_rc 23
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 7802 and root.summary.leaked_objects == 4'
expect_json "$j" "root.leaks | sized(1112) | length == 1 and (.[0] | has_fn(\"shapes::Widget::make(int)\")
	and frame(\"shapes::Widget::make(int)\").line == $(marker "$src" widget-new))"
expect_json "$j" "root.leaks | sized(2222) | length == 1 and (.[0] | has_fn(\"shapes::make_buffer(unsigned long)\")
	and frame(\"shapes::make_buffer(unsigned long)\").line == $(marker "$src" buffer-new))"
expect_json "$j" 'root.leaks | sized(4444) | length == 1 and (.[0] | has_fn("shapes::leak_vector(int)")
	and fn_prefix("std::vector<int, std::allocator<int> >::vector("))'
expect_json "$j" "root.leaks | sized(24) | length == 1 and (.[0] | .stack[] | select(.function == \"shapes::leak_vector(int)\")
	| .line == $(marker "$src" vector-new))"
# new and new[] show as the demangled operators when they are in the stack
expect_json "$j" '[root.leaks[].stack[].function // ""] | map(select(startswith("_Z"))) | length == 0'
expect_json "$j" 'root.leaks | sized(1112)[0] | (has_fn("operator new(unsigned long)") or .stack[0].function == "shapes::Widget::make(int)")'
# deleted twins
for n in 3333 396; do expect_json "$j" "all_leaks | sized($n) | length == 0"; done
exit 0
