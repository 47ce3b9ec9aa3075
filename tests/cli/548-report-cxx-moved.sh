# 548: a C++ program recorded, its binary removed and the trace moved to
# another directory: `leakscope report` still names the demangled functions
# with file:line, from the trace's own SYMBOL records (JSON and text):
# shapes::Widget::make(int) (1,112 bytes), shapes::make_buffer(unsigned
# long) (2,222), shapes::leak_vector(int) (the vector and its 4,444-byte
# buffer); the deleted twins (3,333 and 396 bytes) are not leaks; no _Z name.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim cxx-leaks) || exit
src=$ROOT/tests/victims/cxx-leaks.cc
record_moved "$v" "$T/away/x.lstrace"
[ -e "$T/bin/cxx-leaks" ] && fail "the binary is still there"
"$LEAKSCOPE" report --format json -o "$T/r.json" "$T/away/x.lstrace" 2> "$T/stderr" || fail "report failed"
J=$T/r.json
frame_is() { # bytes function line
	expect_json "$J" "[.leaks[] | select(.leaked_bytes == $1)] | length == 1 and (.[0] | frame(\"$2\")
		| .line == $3 and (.file | endswith(\"cxx-leaks.cc\")) and .module == \"cxx-leaks\")"
}
frame_is 1112 'shapes::Widget::make(int)' "$(marker "$src" widget-new)"
frame_is 2222 'shapes::make_buffer(unsigned long)' "$(marker "$src" buffer-new)"
frame_is 24 'shapes::leak_vector(int)' "$(marker "$src" vector-new)"
expect_json "$J" '[.leaks[] | select(.leaked_bytes == 4444)][0] | has_fn("shapes::leak_vector(int)") and fn_prefix("std::vector<int, std::allocator<int> >::vector(")'
expect_json "$J" '[.leaks[] | select(.leaked_bytes == 3333 or .leaked_bytes == 396)] == []'
expect_json "$J" '[.. | objects | .function? // empty | select(startswith("_Z"))] == []'
expect_json "$J" '.top_allocations | any(has_fn("shapes::Widget::make(int)"))'
"$LEAKSCOPE" report "$T/away/x.lstrace" > "$T/out" 2> "$T/stderr" || fail "text report failed"
expect_grep "$T/out" "#1  shapes::Widget::make\(int\) +cxx-leaks\.cc:$(marker "$src" widget-new) +\(cxx-leaks\)"
expect_grep "$T/out" "1,112 bytes in 1 object (definitely lost, )?allocated from"
exit 0
