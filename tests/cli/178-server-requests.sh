# A server that leaks 640 bytes per request, driven over TCP by its own
# client, and its non-leaking twin: run reports exactly requests x 640 bytes
# at remember_client, definitely lost (run exits 23), and nothing for the
# twin (run exits 0).
. "$(dirname "$0")/../lib.sh"
v=$(victim leakserver) || exit
src=$ROOT/tests/victims/leakserver.c
serve() { # json-out want-status extra-args...
	out=$1 want=$2; shift 2
	"$LEAKSCOPE" run -f json -o "$out" -- "$v" serve "$T/port" "$@" > "$T/server.out" 2> "$T/stderr" &
	pid=$!
	i=0; while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$T/port" ] || fail "the server did not start"
	"$v" get "$(cat "$T/port")" /hello 37 || fail "requests failed"
	"$v" get "$(cat "$T/port")" /quit || fail "quit failed"
	rc=0; wait $pid || rc=$?
	expect_rc "$want"
	rm -f "$T/port"
}
serve "$T/leaky.json" 23
expect_grep "$T/server.out" "served 37 requests"
line=$(marker "$src" leak)
expect_json "$T/leaky.json" "root.leaks | length == 1 and .[0].bytes == 37 * 640 and .[0].objects == 37
	and .[0].class == \"definitely-lost\""
expect_json "$T/leaky.json" "root.leaks[0] | frame(\"remember_client\").line == $line and has_fn(\"serve_one\")"
serve "$T/twin.json" 0 --no-leak
expect_json "$T/twin.json" "root.leaks | length == 0"
