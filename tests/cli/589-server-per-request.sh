# Issue "Long-running processes", item 6: a server leaking 640 bytes per
# request, recorded while a client sends requests in rounds with a marker
# after each (`leakscope mark`): the report ranks remember_client first
# among growing sites, with a good fit, and estimates the bytes per request
# within 5% (per marker / requests per round). The non-leaking twin's
# report names no growing site of the server's own code.
. "$(dirname "$0")/../lib.sh"
v=$(victim leakserver) || exit
ROUNDS=12 PER_ROUND=10
serve() { # trace extra-args...
	trace=$1; shift
	rm -f "$T/port"
	"$LEAKSCOPE" record -o "$trace" -- "$v" serve "$T/port" "$@" > "$T/server.out" 2> "$T/stderr" &
	pid=$!
	i=0; while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$T/port" ] || fail "the server did not start"
	port=$(cat "$T/port")
	r=1; while [ $r -le $ROUNDS ]; do
		"$v" get "$port" /hello $PER_ROUND || fail "requests failed"
		"$LEAKSCOPE" mark "$trace" "round $r" || fail "mark failed"
		sleep 0.1
		r=$((r + 1))
	done
	"$v" get "$port" /quit || fail "quit failed"
	wait $pid || fail "leakscope record exited with $?"
	"$LEAKSCOPE" report --format json -o "$trace.json" "$trace" || fail "report failed"
}
serve "$T/leaky.lstrace"
j=$T/leaky.lstrace.json
expect_json "$j" ".markers | length == $ROUNDS"
expect_json "$j" '.growth[0] | has_fn("remember_client") and .growth.fit > 0.9'
expect_json "$j" ".growth[0].per_mark.fit > 0.99 and (.growth[0].per_mark.bytes / $PER_ROUND - 640 | fabs) <= 0.05 * 640"
expect_json "$j" ".leaks[0] | has_fn(\"remember_client\") and .leaked_bytes == $ROUNDS * $PER_ROUND * 640 and .leaked_objects == $ROUNDS * $PER_ROUND"
serve "$T/twin.lstrace" --no-leak
expect_json "$T/twin.lstrace.json" '[.growth[] | select(has_fn("remember_client") or has_fn("serve_one"))] | length == 0'
