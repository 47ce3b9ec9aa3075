# exit-paths killed from outside: the victim writes its pid to a file and
# waits; the test sends SIGKILL to the victim (not to leakscope). leakscope
# exits 137 and still reports the 4,100-byte block, which the program had no
# chance to report itself: the exit stop comes even for SIGKILL, so it is
# scanned, and main's frame holds it (still reachable).
. "$(dirname "$0")/../lib.sh"
v=$(victim exit-paths) || exit
"$LEAKSCOPE" run --format json --show-reachable -o "$T/r.json" -- "$v" wait "$T/pid" \
	> "$T/stdout" 2> "$T/stderr" &
ls_pid=$!
i=0
while [ ! -s "$T/pid" ]; do
	i=$((i + 1))
	[ $i -le 200 ] || { kill -9 $ls_pid; fail "the victim never wrote its pid"; }
	sleep 0.05
done
pid=$(cat "$T/pid")
[ "$pid" != "$ls_pid" ] || fail "the victim's pid is leakscope's"
kill -9 "$pid"
rc=0
wait $ls_pid || rc=$?
expect_rc 137
expect_json "$T/r.json" '.exit == {"code": 137, "signal": 9}'
expect_json "$T/r.json" "root.pid == $pid and root.end == {\"signal\": 9}"
# SIGKILL too passes the exit stop: main's frame still holds the block
expect_json "$T/r.json" 'root.scanned and root.summary.leaked_bytes == 0
	and root.classes["still-reachable"] == {"bytes": 4100, "objects": 1}'
expect_json "$T/r.json" 'root.leaks | sized(4100) | length == 1
	and (.[0] | .class == "still-reachable" and .stack[0].function == "leak_before_end")'
exit 0
