# leakscope attach PID on a server leakscope did not start, idle in read():
# what it allocates while attached is recorded with its stacks, marks sent
# with `leakscope mark PID` are in the trace, `leakscope detach PID` ends
# the recording (and is answered once done) and the server runs on
# unharmed; it can be attached again, and checked as any process between.
# A mark after each request gives the bytes a request leaks (100). The trace ranks handle_request's
# lost blocks first: 100 bytes a request, but the last (a global holds it);
# the blocks from before the attach are grouped by size, the 777 bytes it
# lost before (malloc's usable size 792) definitely lost, the 5,000 it
# holds still reachable.
. "$(dirname "$0")/../lib.sh"
v=$(victim attach-server) || exit
command -v jq > /dev/null || skip "no jq"

start_waiting "$v"

attach() { # trace
	rm -f "$T/attach.err"   # no line of the attach before
	"$LEAKSCOPE" attach -o "$1" "$vpid" 2> "$T/attach.err" &
	apid=$!
	wait_attached "$T/attach.err" "$vpid" $apid
}
requests() { # first last
	n=$1
	while [ $n -le $2 ]; do
		echo req >&3
		wait_for_line "$T/out" "^ok $n$"
		n=$((n + 1))
	done
}
detach() {
	"$LEAKSCOPE" detach "$vpid" > "$T/detach.out" 2>&1 ||
		{ cat "$T/detach.out" "$T/attach.err"; fail "detach failed"; }
	rc=0; wait $apid || rc=$?
	[ $rc -eq 0 ] || { cat "$T/attach.err"; fail "attach exited $rc"; }
	expect_grep "$T/attach.err" "detached from pid $vpid: [0-9]+ GOT entries restored, scanned"
}

attach "$T/a.lstrace"
"$LEAKSCOPE" mark "$vpid" "first request" || fail "mark failed"
for n in 1 2 3 4 5 6 7 8 9; do
	requests $n $n
	"$LEAKSCOPE" mark "$vpid" "request $n" || fail "mark failed"
done
requests 10 10
"$LEAKSCOPE" mark "$vpid" "ten requests" || fail "mark failed"
detach
requests 11 12            # unharmed, unrecorded
# checked as any process again: 11 of the 12 requests' blocks are lost
"$LEAKSCOPE" check -f json "$vpid" > "$T/check.json" 2> "$T/check.err" ||
	{ cat "$T/check.err"; fail "check after detach failed"; }
expect_json "$T/check.json" "[.processes[0].leaks[] | select(.class == \"definitely-lost\"
	and .stack[0].module == \"blocks of 104 bytes\")][0].objects == 11"
attach "$T/b.lstrace"      # again
requests 13 15
detach
echo go >&3
exec 3>&-
rc=0; wait $vpid || rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "the server exited $rc"; }
expect_grep "$T/out" "^done 15$"

"$LEAKSCOPE" report --show-reachable -f json -o "$T/a.json" "$T/a.lstrace" || fail "report failed"
j=$T/a.json
p='.exit_leaks'
site() { # class function bytes objects
	expect_json "$j" "[$p.leaks[] | select(.class == \"$1\" and .stack[0].function == \"$2\"
		and .bytes == $3 and .objects == $4)] | length == 1"
}
site definitely-lost handle_request 900 9
expect_json "$j" "$p.leaks[0].stack[0].function == \"handle_request\""
# the bytes a request leaks, from the marks: 100 (within 5%)
expect_json "$j" "[.growth[] | select(.stack[0].function == \"handle_request\"
	and .stack[0].line == $(grep -n 'sink = malloc(100)' "$ROOT/tests/victims/attach-server.c" | cut -d: -f1))][0]
	.per_mark | (.bytes >= 95 and .bytes <= 105 and .fit > 0.95)"
expect_json "$j" "[$p.leaks[] | select(.class == \"definitely-lost\"
	and .stack[0].function == \"allocated before attach\"
	and .stack[0].module == \"blocks of 792 bytes\" and .objects == 1)] | length == 1"
expect_json "$j" "[$p.leaks[] | select(.class == \"still-reachable\"
	and .stack[0].module == \"blocks of 5000 bytes\")] | length == 1"
"$LEAKSCOPE" dump "$T/a.lstrace" > "$T/a.dump" || fail "dump failed"
expect_grep "$T/a.dump" "mark .*first request"
expect_grep "$T/a.dump" "mark .*ten requests"
# the second recording has the three requests after it, not the earlier
"$LEAKSCOPE" report -f json -o "$T/b.json" "$T/b.lstrace" || fail "report failed"
expect_json "$T/b.json" "[.exit_leaks.leaks[] | select(.stack[0].function == \"handle_request\"
	and .class == \"definitely-lost\")][0].objects == 2"
exit 0
