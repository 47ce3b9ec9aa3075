# 547: a real server recorded with `leakscope record` while its client
# sends 8 batches of 25 requests spread over time (no markers): the report
# ranks remember_client (640 bytes per request) first among the growing
# sites with a good fit and lists it under leaks with 640 x 200 bytes at
# its malloc line. Bytes per request, two ways, each within 5% of 640:
# the slope (bytes/s) x the batch period / requests per batch, and the
# growth of the site between two time points (`diff TRACE@t1 TRACE@t2`).
# The --no-leak twin's report has no growing site and no leak in the
# server's request code.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim leakserver) || exit
src=$ROOT/tests/victims/leakserver.c
B=8 N=25
REQ='def req: has_fn("remember_client") or has_fn("serve_one") or has_fn("build_response");'

record_server "$T/leaky.lstrace" $B $N
"$LEAKSCOPE" report --format json -o "$T/leaky.json" "$T/leaky.lstrace" 2> "$T/stderr" || fail "report failed"
J=$T/leaky.json
line=$(marker "$src" leak)
expect_json "$J" ".growth[0] | (.stack[0].function == \"remember_client\") and .stack[0].line == $line and has_fn(\"serve_one\")"
expect_json "$J" '.growth[0].growth.fit > 0.9'
expect_json "$J" "[.growth[] | select(.growth.fit > 0.5 and .live_bytes > 4096)] | length == 1"
expect_json "$J" ".leaks[0] | .stack[0].function == \"remember_client\" and .leaked_bytes == 640 * $B * $N and .leaked_objects == $B * $N"
expect_json "$J" ".leaks[0] | .first_alloc_ns < .last_alloc_ns and .last_alloc_ns <= $(jq .summary.duration_ns "$J")"

# the slope over the whole trace, per batch period, per request
t1=$(gap_time "$T/leaky.lstrace" "$J" 1)
tB=$(gap_time "$T/leaky.lstrace" "$J" $B)
est=$(jq -r --argjson a "$t1" --argjson b "$tB" ".growth[0].growth.slope * (\$b - \$a) / ($B - 1) / $N" "$J")
echo "bytes per request from the slope: $est (batch period $(awk -v a="$t1" -v b="$tB" "BEGIN { print (b - a) / ($B - 1) }") s)"
awk -v e="$est" 'BEGIN { exit !(e >= 0.95 * 640 && e <= 1.05 * 640) }' || fail "slope estimate $est is not within 5% of 640"

# the growth between the first and the last gap
"$LEAKSCOPE" diff --format json "$T/leaky.lstrace@$t1" "$T/leaky.lstrace@$tB" > "$T/d.json" 2> "$T/stderr" || fail "diff failed"
expect_json "$T/d.json" ".exact == true and (.a.t_ns / 1e9 - $t1 | fabs) < 1e-6 and (.b.t_ns / 1e9 - $tB | fabs) < 1e-6"
expect_json "$T/d.json" ".sites[0] | has_fn(\"remember_client\") and .removed_bytes == 0"
est=$(jq -r ".sites[0].added_bytes / (($B - 1) * $N)" "$T/d.json")
echo "bytes per request between two time points: $est"
expect_json "$T/d.json" "(.sites[0].added_bytes / (($B - 1) * $N) - 640 | fabs) <= 0.05 * 640"

record_server "$T/twin.lstrace" $B $N --no-leak
"$LEAKSCOPE" report --format json -o "$T/twin.json" "$T/twin.lstrace" 2> "$T/stderr" || fail "report failed"
expect_json "$T/twin.json" "$REQ .summary.allocations >= 4 * $B * $N and .summary.frees >= 4 * $B * $N"
expect_json "$T/twin.json" "$REQ [.growth[] | select(req)] | length == 0"
expect_json "$T/twin.json" "$REQ [.leaks[] | select(req)] | length == 0"
expect_json "$T/twin.json" "$REQ .top_allocations | any(has_fn(\"remember_client\"))"
exit 0
