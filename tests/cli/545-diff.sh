# 545: `leakscope diff`: two snapshots of one trace (exact per block),
# a point and the end, and two traces whose stack ids differ but whose
# symbolized stacks match; errors for unknown points and bad arguments.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
"$GEN" basic "$T/b.lstrace" || fail "gen_trace basic"
"$GEN" basic "$T/b3.lstrace" 3 1 || fail "gen_trace basic 3 swap"
diff_() { rc=0; "$LEAKSCOPE" diff "$@" > "$T/out" 2> "$T/stderr" || rc=$?; }

diff_ --format json "$T/b.lstrace@before" "$T/b.lstrace@after"
expect_rc 0
J=$T/out
expect_json "$J" '.schema == "leakscope-trace-diff/2" and .exact == true and .a.t_ns == 3000000 and .b.t_ns == 8000000'
expect_json "$J" '.added_bytes == 8080 and .added_objects == 19 and .removed_bytes == 0'
expect_json "$J" '[.sites[] | select(.added_bytes > 0) | [.stack[0].function, .added_bytes, .added_objects]] == [["cache_grow",7680,15],["make_node",400,4]]'
expect_json "$J" '.a.live_bytes == 1030720 and .b.live_bytes == 1038800'
# after -> end: keep's block was freed; a time as the point
diff_ --format json "$T/b.lstrace@after" "$T/b.lstrace"
expect_json "$J" '.removed_bytes == 1000000 and .removed_objects == 1 and .added_bytes == 0'
expect_json "$J" '[.sites[] | select(.removed_bytes > 0) | .stack[0].function] == ["keep"]'
diff_ --format json "$T/b.lstrace@0.0045s" "$T/b.lstrace@mark:frame 9"
expect_json "$J" '.added_bytes == 400 and .removed_bytes == 2560 and .removed_objects == 5'
# two traces: stacks defined in another order, leak_late 3x as large
diff_ --format json "$T/b.lstrace" "$T/b3.lstrace"
expect_rc 0
expect_json "$J" '.exact == false and .added_bytes == 800 and .removed_bytes == 0'
expect_json "$J" '.sites[0] | .stack[1].function == "leak_late" and .bytes_a == 400 and .bytes_b == 1200 and .added_objects == 8 and .site_a == 5 and .site_b == 1'
expect_json "$J" '[.sites[] | select(.stack[0].function == "leak_early") | .added_bytes + .removed_bytes] == [0]'
diff_ "$T/b.lstrace" "$T/b3.lstrace"
expect_grep "$T/out" "matched by their symbolized stacks"
expect_grep "$T/out" "\+800 bytes in 8 objects, -0 bytes in 0 objects \(live 400 -> 1,200 bytes\)"
# errors
diff_ "$T/b.lstrace@nothing" "$T/b.lstrace"
expect_rc 1
expect_grep "$T/stderr" "no marker or snapshot 'nothing' in the trace"
diff_ "$T/b.lstrace@after" "$T/b.lstrace@before"
expect_rc 1
expect_grep "$T/stderr" "before it starts"
diff_ "$T/nonexistent@x" "$T/b.lstrace"
expect_rc 1
expect_grep "$T/stderr" "cannot open '.*nonexistent@x'"
diff_ "$T/b.lstrace"
expect_rc 2
"$LEAKSCOPE" diff --help | grep -q "usage: leakscope diff" || fail "diff --help"
exit 0
