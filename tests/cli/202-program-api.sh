# include/leakscope.h: ignore, disable/enable, register_root. Only the
# 1,212-byte block is lost; blocks kept on purpose (ignored, or allocated
# while disabled) are never listed, not even with --show-reachable, and
# what they point to is reachable; the program runs unchanged without
# leakscope.
. "$(dirname "$0")/../lib.sh"
v=$(victim api) || exit
"$v" > "$T/plain.out" || fail "the program fails without leakscope"
expect_grep "$T/plain.out" "running under leakscope: 0"
rc=0
"$LEAKSCOPE" run --show-reachable -f json -o "$T/r.json" -- "$v" > "$T/out" 2> "$T/err" || rc=$?
expect_rc 23 # the program succeeded; its one lost block fails the run
expect_grep "$T/out" "running under leakscope: 1"
j=$T/r.json
expect_json "$j" '.processes[0].classes["definitely-lost"] == {"bytes": 1212, "objects": 1}'
expect_json "$j" '[.processes[0].leaks[] | select(.class != "still-reachable")] | length == 1
	and .[0].class == "definitely-lost" and .[0].stack[0].function == "real_leak"'
expect_json "$j" '[.processes[0].leaks[], .processes[0].suppressed[] | select(.bytes == 5656 or .bytes == 3434)] | length == 0'
expect_json "$j" '.processes[0].leaks | sized(2020) | length == 1 and .[0].class == "still-reachable"'
expect_json "$j" '.processes[0].leaks | sized(7878) | length == 1 and .[0].class == "still-reachable"'
# without the scan, ignored blocks are still not reported
"$LEAKSCOPE" run -f json -o "$T/n.json" -- "$v" > /dev/null 2>&1
expect_json "$T/n.json" '[.processes[0].leaks[] | select(.bytes == 3434)] | length == 0'
