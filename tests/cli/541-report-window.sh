# 541: the window and size filter of `leakscope report`: --from/--to by
# marker, snapshot and time; --size N and MIN-MAX; a name the trace does
# not have, and a window that ends before it starts, are clear errors.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
"$GEN" basic "$T/b.lstrace" || fail "gen_trace basic"
J=$T/out

# seed 003: leaks between two markers (only leak_late's 4 x 100 B)
report --format json --from "frame 1" --to "frame 9" "$T/b.lstrace"
expect_rc 0
expect_json "$J" '[.leaks[] | [.stack[1].function, .leaked_bytes, .leaked_objects]] == [["leak_late",400,4]]'
expect_json "$J" '.window.from.point == "frame 1" and .window.from.t_ns == 6000000 and .window.to.t_ns == 7000000'
# snapshots: cache_grow's 15 survivors and leak_late's 4 were allocated after "before"
report --format json --from before --to snapshot:after "$T/b.lstrace"
expect_json "$J" '[.leaks[] | [.stack[0].function, .leaked_bytes]] == [["cache_grow",7680],["make_node",400]]'
# times: [0.001, 0.0015] holds leak_early's allocations only; "4ms" and "time:" forms
report --format json --from 0.001 --to 1.5ms "$T/b.lstrace"
expect_json "$J" '[.leaks[] | [.stack[0].function, .leaked_objects]] == [["leak_early",10]]'
report --format json --from time:0.004005s --to 4.01ms "$T/b.lstrace"
expect_json "$J" '[.leaks[] | [.stack[0].function, .leaked_objects]] == [["cache_grow",6]]'
# seed 003's follow_alloc: one size, then a range
report --format json --size 3072 "$T/b.lstrace"
expect_json "$J" '[.leaks[].stack[0].function] == ["leak_early"] and [.top_live[].stack[0].function] == ["leak_early"]'
expect_json "$J" '.filter == {"size_min":3072,"size_max":3072} and .summary.peak_live_bytes == 1040960'
report --format json --size 100-600 "$T/b.lstrace"
expect_json "$J" '[.leaks[] | .leaked_bytes] == [7680, 400] and .temporary == []'
report --format json --size 64 "$T/b.lstrace"
expect_json "$J" '.leaks == [] and .temporary[0].temporaries == 50'

# errors
report --to "frame 99" "$T/b.lstrace"
expect_rc 1
expect_grep "$T/stderr" "no marker or snapshot 'frame 99' in the trace \(markers: 'frame 1', 'frame 9'; snapshots: 'before', 'after'\)"
report --from snapshot:frame\ 1 "$T/b.lstrace"
expect_rc 1
expect_grep "$T/stderr" "no snapshot 'frame 1'"
report --from after --to before "$T/b.lstrace"
expect_rc 1
expect_grep "$T/stderr" "the window ends \(marker or snapshot 'before', at 0.003 s\) before it starts"
report --from 5s "$T/b.lstrace"
expect_rc 1
expect_grep "$T/stderr" "starts at 5 s, after the end of the trace"
report --size 10-2 "$T/b.lstrace"
expect_rc 2
expect_grep "$T/stderr" "--size wants N or MIN-MAX"
report --from "" "$T/b.lstrace"
expect_rc 2
exit 0
