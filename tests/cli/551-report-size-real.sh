# 551: --size on a real trace (the leaking server, 4 batches of 10
# requests): --size 640 keeps remember_client's blocks only (all 40 of
# them leaked), --size 4096 keeps serve_one's read buffers (41 with the
# quit request, all freed) out of the leaks, a range below 640 drops
# remember_client; the summary stays that of the whole heap.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim leakserver) || exit
GAP=0.1 record_server "$T/s.lstrace" 4 10
rep() { n=$1; shift; "$LEAKSCOPE" report --format json -o "$T/$n.json" "$@" "$T/s.lstrace" 2> "$T/stderr" || fail "report $*"; }
rep all
rep 640 --size 640
expect_json "$T/640.json" '.filter == {"size_min":640,"size_max":640}'
expect_json "$T/640.json" '[.leaks[] | [.stack[0].function, .leaked_bytes, .leaked_objects]] == [["remember_client", 25600, 40]]'
expect_json "$T/640.json" '[.top_allocations[] | .stack[0].function] == ["remember_client"] and .growth[0].stack[0].function == "remember_client"'
expect_json "$T/640.json" "$(jq -c .summary.peak_live_bytes "$T/all.json") == .summary.peak_live_bytes and .summary.events == $(jq .summary.events "$T/all.json")"
rep 4096 --size 4096
expect_json "$T/4096.json" '[.top_allocations[] | select(has_fn("serve_one")) | [.stack[0].function, .allocations, .frees, .live_bytes]] == [["serve_one", 41, 41, 0]]'
expect_json "$T/4096.json" '[.leaks[] | select(has_fn("serve_one"))] == [] and all(.top_allocations[]; has_fn("remember_client") | not)'
rep low --size 1-639
expect_json "$T/low.json" '[.leaks[], .top_allocations[], .growth[] | select(has_fn("remember_client"))] == []'
expect_json "$T/low.json" '.top_allocations | any(has_fn("serve_one"))'
exit 0
