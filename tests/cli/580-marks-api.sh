# leakscope_mark/leakscope_snapshot (include/leakscope.h): the program runs
# unchanged without leakscope; under it the marks arrive in order with the
# allocations around them (live bytes at each mark), a long text is cut to
# 495 bytes, and a mark from a signal handler arrives too.
. "$(dirname "$0")/../lib.sh"
v=$(victim marks) || exit
"$v" > "$T/plain.out" || fail "the program fails without leakscope"
expect_grep "$T/plain.out" "under leakscope: 0"
ls_run "$T/r.json" -- "$v"
expect_rc 0
j=$T/r.json
expect_json "$j" '[root.marks[] | [.kind, .text[0:25]]] == [["mark","start"],
	["snapshot","after a"], ["mark","after b"], ["mark","from a signal handler"],
	["mark","xxxxxxxxxxxxxxxxxxxxxxxxx"], ["snapshot","end"]]'
# live bytes: relative to "start", +1000, +3000, +2000 (a freed), 0 at the end
expect_json "$j" '[root.marks[].live_bytes] as $l | [$l[] - $l[0]] == [0, 1000, 3000, 2000, 2000, 0]'
expect_json "$j" '[root.marks[].event] as $e | $e == ($e | sort) and ($e | unique | length) == 6'
expect_json "$j" 'root.marks[4].text | length == 495'
expect_json "$j" 'root as $r | $r.marks_dropped == 0 and ($r.marks | all(.tid == $r.pid))'
