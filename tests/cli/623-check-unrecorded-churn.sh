# leakscope check PID, ten times, on a program leakscope did not start
# whose four threads allocate and free all the time: a check may stop a
# thread inside malloc, and then reads the heap again. Each check ends
# with a report, or with the message that the heap stayed inconsistent
# (never a crash, never a hang); the program goes on and ends normally.
. "$(dirname "$0")/../lib.sh"
v=$(victim attach-churn) || exit

start_waiting "$v"
reports=0
for n in 1 2 3 4 5 6 7 8 9 10; do
	rc=0
	timeout 120 "$LEAKSCOPE" check -f json "$vpid" > "$T/c.json" 2> "$T/c.err" || rc=$?
	if [ $rc -eq 0 ]; then
		expect_json "$T/c.json" ".processes[0].pid == $vpid and .processes[0].scanned
			and .processes[0].attach.arenas >= 2 and .processes[0].attach.tries >= 1"
		reports=$((reports + 1))
	else
		[ $rc -eq 1 ] || { cat "$T/c.err"; fail "check $n exited $rc"; }
		expect_grep "$T/c.err" "^leakscope: check: glibc's heap is not consistent: "
	fi
done
[ $reports -ge 5 ] || fail "only $reports of 10 checks gave a report"
finish_waiting
exit 0
