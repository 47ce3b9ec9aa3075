# 553: `leakscope diff` on real traces of the server (5 batches of 20
# requests): two time points of one trace (exact per block: the 3 batches
# between them, 60 x 640 bytes added at remember_client, nothing removed
# there, the request buffers freed in between not shown as added); the
# leaking trace against its --no-leak twin (sites matched by symbolized
# stacks: remember_client 0 -> 100 x 640 bytes). Events are stamped when
# the recorder drains the ring (docs/recording.md): a gap of 0.6 s leaves a
# starved recorder 0.3 s to stamp a batch before the gap's time.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim leakserver) || exit
GAP=0.6 record_server "$T/a.lstrace" 5 20
GAP=0.1 record_server "$T/twin.lstrace" 5 20 --no-leak
"$LEAKSCOPE" report --format json -o "$T/all.json" "$T/a.lstrace" 2> "$T/stderr" || fail "report"
t1=$(gap_time "$T/a.lstrace" "$T/all.json" 1)
t4=$(gap_time "$T/a.lstrace" "$T/all.json" 4)
D=$T/d.json
"$LEAKSCOPE" diff --format json -o "$D" "$T/a.lstrace@$t1" "$T/a.lstrace@time:$t4" 2> "$T/stderr" || fail "diff"
expect_json "$D" '.exact == true and .sites[0].stack[0].function == "remember_client"'
expect_json "$D" '.sites[0] | .added_bytes == 38400 and .added_objects == 60 and .removed_bytes == 0 and .bytes_b - .bytes_a == 38400'
expect_json "$D" '[.sites[] | select(has_fn("serve_one") and (has_fn("remember_client") | not)) | .added_bytes] | all(. == 0)'
expect_json "$D" '.b.live_bytes - .a.live_bytes == .added_bytes - .removed_bytes'
"$LEAKSCOPE" diff "$T/a.lstrace@$t1" "$T/a.lstrace@$t4" > "$T/out" 2> "$T/stderr" || fail "text diff"
expect_grep "$T/out" "\+38,400 bytes in 60 objects"
expect_grep "$T/out" "remember_client +leakserver\.c:$(marker "$ROOT/tests/victims/leakserver.c" leak)"
"$LEAKSCOPE" diff --format json -o "$D" "$T/twin.lstrace" "$T/a.lstrace" 2> "$T/stderr" || fail "diff of two traces"
expect_json "$D" '.exact == false and (.sites[0] | .stack[0].function == "remember_client" and .bytes_a == 0 and .bytes_b == 64000 and .added_objects == 100)'
expect_json "$D" '[.sites[] | select(has_fn("build_response")) | .added_bytes + .removed_bytes] | all(. == 0)'
exit 0
