# record: churn-kill is killed with SIGKILL in the middle of three threads'
# malloc/free churn, after at least one flush. record exits 137; the trace
# is complete (the collector writes END when the process is gone), holds
# the 7,777 bytes from leak_then_wait, many events, and a consistent view
# of the heap (no free of an unknown block) across threads, and the
# verdicts of the scan at its end.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim churn-kill) || exit
"$LEAKSCOPE" record -o "$T/k.lstrace" -- "$v" "$T/pid" > "$T/stdout" 2> "$T/stderr" &
ls_pid=$!
i=0
while [ ! -s "$T/pid" ]; do
	i=$((i + 1))
	[ $i -le 400 ] || { kill -9 $ls_pid; fail "the victim never wrote its pid"; }
	sleep 0.05
done
sleep 1.2
kill -9 "$(cat "$T/pid")"
rc=0
wait $ls_pid || rc=$?
expect_rc 137
ls_dump "$T/k.lstrace" "$T/d"
[ "$drc" = 0 ] || { cat "$T/d.err"; fail "dump of the killed program's trace failed"; }
sid=$(site_stack "$T/d" leak_then_wait)
[ "$(count_allocs "$T/d" "$sid" 7777)" = 1 ] || fail "no allocation of 7777 bytes from leak_then_wait"
expect_grep "$T/d" '^[0-9.]+ end events=[0-9]+ allocs=[0-9]{5,} frees=[0-9]{5,} '
[ "$(awk '$2 == "alloc" { print $3 }' "$T/d" | sort -u | wc -l)" -ge 3 ] || fail "expected events of several threads"
consistent "$T/d"
# a process killed by SIGKILL still stops at its exit (PTRACE_EVENT_EXIT):
# it was scanned, and the report has run's verdicts
"$LEAKSCOPE" report "$T/k.lstrace" > "$T/r" 2> "$T/r.err" || fail "report failed: $(cat "$T/r.err")"
expect_grep "$T/r" "^leakscope: 7,777 bytes lost in 1 object \(pid [0-9]+, .*churn-kill"
expect_grep "$T/r" "^  7,777 bytes in 1 object definitely lost, allocated from:"
exit 0
