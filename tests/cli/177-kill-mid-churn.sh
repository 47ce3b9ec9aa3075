# churn-kill: SIGKILL lands while three threads are in the middle of
# malloc/free. leakscope exits 137 and reports the 7,777 bytes from
# leak_then_wait; everything else still live was held by the churning
# threads (churn) - nothing else, no unmatched free.
. "$(dirname "$0")/../lib.sh"
v=$(victim churn-kill) || exit
"$LEAKSCOPE" run --format json -o "$T/r.json" -- "$v" "$T/pid" > "$T/stdout" 2> "$T/stderr" &
ls_pid=$!
i=0
while [ ! -s "$T/pid" ]; do
	i=$((i + 1))
	[ $i -le 400 ] || { kill -9 $ls_pid; fail "the victim never wrote its pid"; }
	sleep 0.05
done
kill -9 "$(cat "$T/pid")"
rc=0
wait $ls_pid || rc=$?
expect_rc 137
j=$T/r.json
expect_json "$j" 'root.end == {"signal": 9}'
expect_json "$j" 'root.leaks | sized(7777) | length == 1 and (.[0].stack[0].function == "leak_then_wait")'
expect_json "$j" 'all(root.leaks[]; .bytes == 7777 or has_fn("churn"))'
expect_json "$j" '[root.leaks[] | select(has_fn("churn")) | .objects] | add <= 3 * 64'
expect_json "$j" 'root.stats.allocations >= 300000 and root.stats.unmatched_frees == 0'
exit 0
