# record: the collector itself (leakscope record) is killed with SIGKILL
# while the program runs. The trace file keeps its complete chunks (flushed
# each second): dump prints the records up to the last one, then says the
# trace is truncated and has no end record, and exits 1.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim churn-kill) || exit
"$LEAKSCOPE" record -o "$T/c.lstrace" -- "$v" "$T/pid" > "$T/stdout" 2> "$T/stderr" &
ls_pid=$!
i=0
while [ ! -s "$T/pid" ]; do
	i=$((i + 1))
	[ $i -le 400 ] || { kill -9 $ls_pid; fail "the victim never wrote its pid"; }
	sleep 0.05
done
sleep 2.2
kill -9 $ls_pid
wait $ls_pid 2> /dev/null
kill -9 "$(cat "$T/pid")" 2> /dev/null   # it waits for a collector that is gone
ls_dump "$T/c.lstrace" "$T/d"
[ "$drc" = 1 ] || fail "dump of a cut-off trace exited $drc, not 1"
expect_grep "$T/d.err" "^leakscope: '$T/c.lstrace': truncated at offset [0-9]+ \(last complete chunk ends at [0-9.]+ s\); no end record: the recording was cut off or is still being written\$"
expect_grep "$T/d" '^# leakscope trace 2\.1 '
! grep -q ' end ' "$T/d" || fail "a cut-off trace has an end record"
na=$(grep -c '^[0-9.]* alloc ' "$T/d")
[ "$na" -ge 1000 ] || fail "expected the complete chunks' allocations, got $na"
sid=$(site_stack "$T/d" leak_then_wait)
[ "$(count_allocs "$T/d" "$sid" 7777)" = 1 ] || fail "no allocation of 7777 bytes from leak_then_wait"
expect_grep "$T/d" '^[0-9.]+ sample rss=[1-9]'
consistent "$T/d"
# the report says what it has: blocks not freed, and why there is no verdict
"$LEAKSCOPE" report "$T/c.lstrace" > "$T/r" 2> "$T/r.err" || fail "report failed: $(cat "$T/r.err")"
expect_grep "$T/r.err" "truncated at offset"
expect_grep "$T/r" "note: the trace holds no verdicts of a scan: its recording did not end"
expect_grep "$T/r" "^  7,777 bytes in 1 object allocated from:"
exit 0
