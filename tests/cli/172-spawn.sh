# spawn: a program starts leak-one with posix_spawn (a vfork-style clone, no
# fork handlers) and again with system(). Both leak-one processes are
# reported with their 1,000 bytes from hello; spawn itself leaks nothing.
. "$(dirname "$0")/../lib.sh"
v=$(victim spawn) || exit
one=$(victim leak-one) || exit
ls_run "$T/r.json" -- "$v" "$one"
expect_rc 23
pid=$(sed -n 's/^spawned \([0-9]*\)$/\1/p' "$T/stdout")
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 0'
expect_json "$j" "proc($pid) | (.exe | endswith(\"/leak-one\")) and .command == \"$one spawned\"
	and .summary.leaked_bytes == 1000 and .leaks[0].stack[0].function == \"hello\""
expect_json "$j" "[.processes[] | select(.command == \"$one by-system\")] | length == 1
	and (.[0] | .summary.leaked_bytes == 1000 and .leaks[0].stack[0].function == \"hello\")"
exit 0
