# cgo-leak: hello() in C mallocs 1,000 bytes, prints the pointer and leaks
# it; main.main calls it and returns, without C.exit(0). Exactly that leak
# is reported: hello at hello.c:LINE, below it the Go caller main.main
# (the stack crosses cgo's switch to the system stack).
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-leak) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 23
ptr=$(sed -n 's/^leaking \(0x[0-9a-f]*\)$/\1/p' "$T/stdout")
[ -n "$ptr" ] || { cat "$T/stdout"; fail "victim did not print its pointer"; }
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 1000 and root.summary.leaked_objects == 1'
expect_json "$j" "root.leaks[0] | .bytes == 1000 and .objects == 1 and .class == \"definitely-lost\"
	and (.stack[0] | .function == \"hello\" and (.file | endswith(\"hello.c\"))
	and .line == $(marker "$ROOT/tests/victims/cgo-leak/hello.c" cgo-malloc) and .module == \"cgo-leak\")"
expect_json "$j" 'root.leaks[0] | has_fn("main.main")'
# main.main comes after hello, and the cgo call frames in between
expect_json "$j" 'root.leaks[0].stack | (map(.function) | index("main.main")) > (map(.function) | index("hello"))'
exit 0
