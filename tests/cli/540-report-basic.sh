# 540: `leakscope report` on a generated trace whose answers are known
# (tests/support/gen_trace.c, scenario basic): summary, peak and what was
# live then, leaks with their allocation times, temporaries, top lists;
# the text report names the same functions and numbers.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
"$GEN" basic "$T/b.lstrace" || fail "gen_trace basic"

report --format json -o "$T/r.json" "$T/b.lstrace"
expect_rc 0
J=$T/r.json
expect_json "$J" '.schema == "leakscope-trace-report/2" and .program == "genprog --serve" and .pid == 4242'
expect_json "$J" '.summary | .allocations == 85 and .frees == 56 and .bytes_allocated == 1044560 and .events == 148'
expect_json "$J" '.summary | .peak_live_bytes == 1040960 and .peak_t_ns == 4019000'
expect_json "$J" '.summary | .final_live_bytes == 38800 and .final_live_objects == 29'
expect_json "$J" '.summary | .rss_peak_bytes == 8000000 and .rss_peak_t_ns == 5000000 and .duration_ns == 10000000'
expect_json "$J" '.summary.temporary_allocations == 50 and .summary.markers == 2 and .summary.snapshots == 2'
expect_json "$J" '[.markers[].text] == ["frame 1", "frame 9"] and [.snapshots[].name] == ["before", "after"]
	and [.markers[].t_ns] == [6000000, 7000000] and [.snapshots[].t_ns] == [3000000, 8000000]'
# live at the peak: keep, leak_early, cache_grow (all 20 blocks then)
expect_json "$J" '[.peak[] | [.stack[0].function, .peak_bytes, .peak_objects]] == [["keep",1000000,1],["leak_early",30720,10],["cache_grow",10240,20]]'
# leaks of the whole trace, largest first, with allocation times
expect_json "$J" '[.leaks[] | [.stack[0].function, .leaked_bytes, .leaked_objects]] == [["leak_early",30720,10],["cache_grow",7680,15],["make_node",400,4]]'
expect_json "$J" '.leaks[0] | .first_alloc_ns == 1100000 and .last_alloc_ns == 1109000'
expect_json "$J" '.leaks[2].stack | .[0].inlined == true and .[1].function == "leak_late" and .[1].line == 51 and .[1].module == "genprog"'
expect_json "$J" '.leaks[0].stack[2] | .function == null and .module == "genprog" and .offset == "0x403000"'
expect_json "$J" '[.temporary[] | [.stack[0].function, .temporaries]] == [["temp_buf", 50]]'
expect_json "$J" '[.top_live[].stack[0].function] == ["leak_early","cache_grow","make_node"]'
expect_json "$J" '.top_allocations[0].stack[0].function == "temp_buf" and .top_allocated_bytes[0].stack[0].function == "keep"'
expect_json "$J" '.leak_candidates.blocks == 29 and (.leak_candidates.points | length) == 29'
expect_json "$J" '[.leak_candidates.points[] | .[0]] | min == 1100000 and all(. == floor)'
expect_json "$J" '[.leak_candidates.points[] | .[1]] | (map(select(. == 3072)) | length) == 10'

report "$T/b.lstrace"
expect_rc 0
expect_grep "$T/out" "peak live +1,040,960 bytes at 0.004019 s"
# the leaks as `run` says them: without verdicts in the trace, "not freed", and why
expect_grep "$T/out" "^leakscope: 38,800 bytes in 29 objects not freed at exit \(pid 4242, genprog --serve\)"
expect_grep "$T/out" "note: the trace holds no verdicts of a scan"
expect_grep "$T/out" "^  30,720 bytes in 10 objects allocated from:"
expect_json "$J" '.exit_leaks | .scanned == false and .classes["not-freed"] == {"bytes":38800,"objects":29}'
expect_json "$J" '[.exit_leaks.leaks[] | [.class, .bytes, .objects, .stack[0].function]] == [["not-freed",30720,10,"leak_early"],["not-freed",7680,15,"cache_grow"],["not-freed",400,4,"make_node"]]'
# a window that ends before the trace: blocks not freed by then, with their times
report --to 0.0045 "$T/b.lstrace"
expect_grep "$T/out" "30,720 bytes in 10 objects not freed, allocated from 0.0011 s to 0.001109 s"
expect_grep "$T/out" "#0  make_node .*genprog.c:50 .*\(genprog\) \[inlined\]"
expect_grep "$T/out" "50 temporary allocations of 50"
report --top 2 "$T/b.lstrace"
expect_grep "$T/out" "Top sites by live bytes at the end \(2 of 3 sites\)"
grep -q make_node "$T/out" && fail "--top 2 still shows the third site"

"$LEAKSCOPE" report --help > "$T/help" || fail "--help failed"
expect_grep "$T/help" "usage: leakscope report"
"$LEAKSCOPE" --help | grep -q "report" || fail "report missing from leakscope --help"
exit 0
