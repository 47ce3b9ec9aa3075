# leakscope killed (SIGKILL) at each step of an attach and of a detach
# (LEAKSCOPE_FAULT, src/common/fault.h): the server it worked on, busy in
# two more threads, is never left stopped, answers every request after,
# and ends normally with the right output.
. "$(dirname "$0")/../lib.sh"
v=$(victim attach-server) || exit

requests() { # first last
	n=$1
	while [ $n -le $2 ]; do
		echo req >&3
		wait_for_line "$T/out" "^ok $n$"
		n=$((n + 1))
	done
}
not_stopped() {
	sleep 0.1
	for s in /proc/$vpid/task/*/status; do
		grep -q "State:.*[tT]" "$s" 2> /dev/null && fail "$point: a thread was left stopped"
	done
	return 0
}
finish() { # requests made
	echo go >&3
	exec 3>&-
	rc=0; wait $vpid || rc=$?
	[ $rc -eq 0 ] || { cat "$T/err"; fail "$point: the server exited $rc"; }
	expect_grep "$T/out" "^done $1$"
}

for point in inject-chosen inject-stub-written inject-entered inject-syscall-1 \
	     inject-syscall-2 inject-syscall-5 inject-syscall-20 inject-syscall-40 \
	     inject-outcome announced heap-stopped attached; do
	echo "fault point $point"
	start_waiting "$v" 2
	rc=0
	LEAKSCOPE_FAULT=$point timeout 30 "$LEAKSCOPE" attach -q -o "$T/t.lstrace" "$vpid" \
		> "$T/attach.out" 2>&1 &
	apid=$!
	case $point in
	inject-syscall-*)   # a later system call than the stub makes: no death
		sleep 1
		kill -0 $apid 2> /dev/null && "$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 ;;
	esac
	wait $apid || rc=$?
	case $point in
	inject-syscall-*) [ $rc -eq 0 ] || [ $rc -eq 137 ] ;;
	*) [ $rc -eq 137 ] ;;
	esac || { cat "$T/attach.out"; fail "$point: attach exited $rc"; }
	not_stopped
	requests 1 5
	finish 5
done

for point in detach-stopped detach-restoring detach-restored; do
	echo "fault point $point"
	start_waiting "$v" 2
	rm -f "$T/attach.err"   # no line of the attach before
	LEAKSCOPE_FAULT=$point "$LEAKSCOPE" attach -o "$T/t.lstrace" "$vpid" 2> "$T/attach.err" &
	apid=$!
	wait_attached "$T/attach.err" "$vpid" $apid
	requests 1 3
	"$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 && fail "$point: detach succeeded"
	rc=0; wait $apid || rc=$?
	[ $rc -eq 137 ] || { cat "$T/attach.err"; fail "$point: attach exited $rc"; }
	not_stopped
	requests 4 8
	finish 8
done
exit 0
