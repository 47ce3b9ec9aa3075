# A server that leaks 640 bytes per request, driven over TCP by its own
# client, and its non-leaking twin: run reports exactly requests x 640 bytes
# at remember_client, and nothing for the twin.
. "$(dirname "$0")/../lib.sh"
v=$(victim leakserver) || exit
src=$ROOT/tests/victims/leakserver.c
serve() { # json-out extra-args...
	out=$1; shift
	"$LEAKSCOPE" run -f json -o "$out" -- "$v" serve "$T/port" "$@" > "$T/server.out" 2> "$T/stderr" &
	pid=$!
	i=0; while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$T/port" ] || fail "the server did not start"
	"$v" get "$(cat "$T/port")" /hello 37 || fail "requests failed"
	"$v" get "$(cat "$T/port")" /quit || fail "quit failed"
	wait $pid || fail "leakscope run exited with $?"
	rm -f "$T/port"
}
serve "$T/leaky.json"
expect_grep "$T/server.out" "served 37 requests"
line=$(marker "$src" leak)
expect_json "$T/leaky.json" "root.leaks | length == 1 and .[0].bytes == 37 * 640 and .[0].objects == 37"
expect_json "$T/leaky.json" "root.leaks[0] | frame(\"remember_client\").line == $line and has_fn(\"serve_one\")"
serve "$T/twin.json" --no-leak
expect_json "$T/twin.json" "root.leaks | length == 0"
