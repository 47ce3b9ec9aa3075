# 552: --from/--to as times on a real trace (the leaking server, 6 batches
# of 20 requests, times taken in the pauses between batches): the leaks of
# the window are exactly the requests sent in it (3 batches: 60 x 640
# bytes), allocated within it; from the 5th pause to the end, the last
# batch; from the start to the 2nd pause (in ms), the first two.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim leakserver) || exit
GAP=0.2 record_server "$T/w.lstrace" 6 20
"$LEAKSCOPE" report --format json -o "$T/all.json" "$T/w.lstrace" 2> "$T/stderr" || fail "report"
t2=$(gap_time "$T/w.lstrace" "$T/all.json" 2)
t5=$(gap_time "$T/w.lstrace" "$T/all.json" 5)
J=$T/win.json
"$LEAKSCOPE" report --format json -o "$J" --from "$t2" --to "${t5}s" "$T/w.lstrace" 2> "$T/stderr" || fail "report --from --to"
expect_json "$J" "(.window.from.t_ns / 1e9 - $t2 | fabs) < 1e-6 and (.window.to.t_ns / 1e9 - $t5 | fabs) < 1e-6"
expect_json "$J" '[.leaks[] | select(has_fn("remember_client")) | [.leaked_bytes, .leaked_objects]] == [[38400, 60]]'
expect_json "$J" ".leaks[0] | has_fn(\"remember_client\") and .first_alloc_ns / 1e9 > $t2 and .last_alloc_ns / 1e9 < $t5"
expect_json "$J" '.summary.leaked_bytes >= 38400 and .summary.leaked_bytes < 38400 + 4096'
"$LEAKSCOPE" report --format json -o "$J" --from "time:$t5" "$T/w.lstrace" 2> "$T/stderr" || fail "report --from"
expect_json "$J" '[.leaks[] | select(has_fn("remember_client")) | .leaked_objects] == [20]'
ms=$(awk -v t="$t2" 'BEGIN { printf "%.3fms", t * 1000 }')
"$LEAKSCOPE" report --format json -o "$J" --to "$ms" "$T/w.lstrace" 2> "$T/stderr" || fail "report --to ms"
expect_json "$J" '[.leaks[] | select(has_fn("remember_client")) | .leaked_objects] == [40]'
exit 0
