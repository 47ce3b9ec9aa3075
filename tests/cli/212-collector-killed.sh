# collector-killed: leakscope is killed with SIGKILL at random points of
# `run`, `record` and of a `check` (the command and the run it asks),
# while a program with threads and a child churns through malloc. The
# program must finish with its own output and status (the event ring
# fills up once nobody drains it: the interposer notices the collector is
# gone, says so once and runs on unrecorded).
. "$(dirname "$0")/../lib.sh"
v=$(victim keeps-going) || exit
"$v" > "$T/want"; echo "status $?" >> "$T/want"
grep -q '^status 5$' "$T/want" || fail "the victim alone: $(cat "$T/want")"

# finish WHAT: wait for the program's status file, compare with alone
# (leakscope killed before it started the program: nothing to wait for)
finish() {
	i=0
	sleep 0.2
	[ -e "$T/started" ] || { wait $ls_pid 2> /dev/null; return 0; }
	while [ ! -s "$T/status" ]; do
		i=$((i + 1))
		[ $i -le 600 ] || { pkill -9 -f keeps-going; fail "$1: the program never finished (hangs)"; }
		sleep 0.05
	done
	cat "$T/out" "$T/status" > "$T/got"
	cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "$1: the program's output or status changed"; }
	if grep -q 'runs on unrecorded' "$T/err"; then
		expect_grep "$T/err" '^leakscope: the collector \(pid [0-9]+\) is gone; pid [0-9]+ runs on unrecorded$'
	fi
	rm -f "$T/out" "$T/status" "$T/err" "$T/started"
	ran=$((ran + 1))
}

# start ARGS...: the program under leakscope ARGS, in the background
start() {
	"$LEAKSCOPE" "$@" -- sh -c ": > '$T/started'; '$v' > '$T/out'; echo \"status \$?\" > '$T/status.tmp'; mv '$T/status.tmp' '$T/status'" \
		2> "$T/err" > /dev/null &
	ls_pid=$!
}

delays="0.05 0.1 0.3 0.6 1.0 $(awk 'BEGIN { srand(); printf "%.2f %.2f", 0.05 + rand(), rand() * 2 }')"
ran=0
for d in $delays; do
	start run
	sleep "$d"
	kill -9 $ls_pid
	finish "run killed after $d s"
	start record -o "$T/r-$d.lstrace"
	sleep "$d"
	kill -9 $ls_pid
	finish "record killed after $d s"
done

# check: kill the check command, then the run it asked, at random points
for d in 0.05 0.2; do
	start run
	sleep 0.3
	pid=$(pgrep -f -n "^$v\$") || true
	if [ -n "$pid" ]; then
		"$LEAKSCOPE" check "$pid" > /dev/null 2>&1 &
		ck=$!
		sleep "$d"
		kill -9 $ck 2> /dev/null
		"$LEAKSCOPE" check "$pid" > /dev/null 2>&1 &
		sleep "$d"
		kill -9 $ls_pid
	fi
	finish "check, run killed after $d s"
	wait 2> /dev/null
done
[ $ran -ge 10 ] || fail "only $ran of the runs started the program before leakscope was killed"
exit 0
