# leak-one with --format json -o FILE: the leakscope-leaks/1 document, its
# root process and the one 1,000-byte leak, hello() at frame 0 with the
# file:line of the malloc call, main() below it; stdout untouched.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
line=$(marker "$ROOT/tests/victims/leak-one.c" hello-malloc)
ls_run "$T/r.json" -- "$v" one two
expect_rc 23
expect_grep "$T/stdout" '^hello 0x[0-9a-f]+$'
j=$T/r.json
expect_json "$j" '.schema == "leakscope-leaks/1"'
expect_json "$j" ".command == [\"$v\", \"one\", \"two\"]"
expect_json "$j" '.exit == {"code": 0, "signal": null}'
expect_json "$j" '(.processes | length) == 1 and (.unreported | length) == 0'
expect_json "$j" "[root] | length == 1 and (.[0] | .forked == false and .end == {\"code\": 0}
	and .exe == \"$v\" and .command == \"$v one two\" and (.pid | type) == \"number\"
	and (.ppid | type) == \"number\")"
expect_json "$j" 'root.stats | .allocations >= 1 and .frees >= 0 and .unmatched_frees == 0
	and .bytes_allocated >= 1000 and .peak_bytes >= 1000'
expect_json "$j" 'root.summary | .leaked_bytes == 1000 and .leaked_objects == 1'
expect_json "$j" 'root.leaks | length == 1'
expect_json "$j" 'root.leaks[0] | .bytes == 1000 and .objects == 1 and .class == "definitely-lost"'
expect_json "$j" "root.leaks[0].stack[0] | .function == \"hello\" and (.file | endswith(\"leak-one.c\"))
	and .line == $line and .module == \"leak-one\" and (.offset | test(\"^0x[0-9a-f]+\$\"))
	and .inlined == false"
expect_json "$j" 'root.leaks[0].stack[1] | .function == "main" and (.file | endswith("leak-one.c"))'
# nothing of leakscope's own interposer shows in a stack
expect_json "$j" '[.processes[].leaks[].stack[].module] | all(test("leakscope") | not)'
exit 0
