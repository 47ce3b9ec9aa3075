# 549: a Go program whose C code (cgo) leaks 1,000 bytes, recorded, its
# binary removed and the trace moved: the report names hello at
# hello.c:LINE and, below it, the Go caller main.main at main.go, from the
# trace's own records.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim cgo-leak) || exit
record_moved "$v" "$T/away/g.lstrace"
"$LEAKSCOPE" report --format json -o "$T/r.json" "$T/away/g.lstrace" 2> "$T/stderr" || fail "report failed"
J=$T/r.json
line=$(marker "$ROOT/tests/victims/cgo-leak/hello.c" cgo-malloc)
expect_json "$J" "[.leaks[] | select(.leaked_bytes == 1000)] | length == 1 and (.[0] | .leaked_objects == 1
	and (.stack[0] | .function == \"hello\" and (.file | endswith(\"hello.c\")) and .line == $line and .module == \"cgo-leak\")
	and (frame(\"main.main\") | .file | endswith(\"main.go\")))"
expect_json "$J" '[.leaks[] | select(.leaked_bytes == 1000)][0].stack | (map(.function) | index("main.main")) > (map(.function) | index("hello"))'
"$LEAKSCOPE" report "$T/away/g.lstrace" > "$T/out" 2> "$T/stderr" || fail "text report failed"
expect_grep "$T/out" "#0  hello +hello\.c:$line +\(cgo-leak\)"
expect_grep "$T/out" "main\.main +main\.go:[0-9]+ +\(cgo-leak\)"
exit 0
