# Bad targets and bad clients: a non-existent trace or pid, a stale socket
# of a recorder killed by SIGKILL (removed on the way, clear message), text
# that is not one line, `start` on a run (not supported, said so), a client
# that connects and sends nothing (the recorder still serves others), and a
# request that is too long.
. "$(dirname "$0")/../lib.sh"
v=$(victim check-threads) || exit
export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
d=$XDG_RUNTIME_DIR/leakscope

expect_fail() { # rc regex command...
	want=$1 re=$2; shift 2
	rc=0; "$@" > "$T/o" 2> "$T/e" || rc=$?
	[ $rc -eq "$want" ] || { cat "$T/e"; fail "'$*' exited $rc, not $want"; }
	expect_grep "$T/e" "$re"
}

expect_fail 1 "no running recording writes '$T/none.lstrace'" \
	"$LEAKSCOPE" check "$T/none.lstrace"
: > "$T/idle.lstrace"
expect_fail 1 "no running recording writes '$T/idle.lstrace'; it ended, or was started by another user" \
	"$LEAKSCOPE" mark "$T/idle.lstrace" hello
expect_fail 1 "no running recording records pid 999999999; it ended" \
	"$LEAKSCOPE" stop 999999999
expect_fail 2 "the text holds a control character" "$LEAKSCOPE" mark 1 "two
lines"
expect_fail 2 "missing arguments" "$LEAKSCOPE" snapshot 1
expect_fail 2 "unknown format 'xml'" "$LEAKSCOPE" check -f xml 1
"$LEAKSCOPE" start --help | grep -q "^usage: leakscope start TARGET" || fail "start --help"

rm -f "$T/in" && mkfifo "$T/in"
"$LEAKSCOPE" run -f json -o "$T/exit.json" -- "$v" < "$T/in" > "$T/out" 2> "$T/err" &
runpid=$!
exec 3> "$T/in"
i=0
until grep -q ready "$T/out"; do
	i=$((i + 1)); [ $i -lt 200 ] || fail "the victim never got ready"; sleep 0.05
done
pid=$(awk '/ready/ {print $2}' "$T/out")
expect_fail 1 "'start' is not supported by this recording \\(leakscope run\\)" \
	"$LEAKSCOPE" start "$pid"

if command -v python3 > /dev/null; then
	# a silent client holds a connection; another one is served meanwhile
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(3)' \
		"$d/$runpid.sock" &
	silent=$!
	sleep 0.3
	t0=$(date +%s%N)
	"$LEAKSCOPE" mark "$pid" "while a client is silent" || fail "mark failed beside a silent client"
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ $ms -lt 2000 ] || fail "mark took $ms ms beside a silent client"
	kill $silent 2> /dev/null; wait $silent 2> /dev/null
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b"mark " + b"x" * 5000)
print(s.recv(200).decode())' "$d/$runpid.sock" > "$T/long" || fail "long request"
	expect_grep "$T/long" "^error request too long"
fi

# the recorder dies by SIGKILL: its socket stays behind until a client finds it dead
kill -9 $runpid
wait $runpid 2> /dev/null
[ -S "$d/$runpid.sock" ] || fail "the killed recorder left no socket (test premise)"
expect_fail 1 "no running recording records pid $pid; it ended, or was started by another user" \
	"$LEAKSCOPE" check "$pid"
[ ! -e "$d/$runpid.sock" ] || fail "the stale socket was not removed"
echo go >&3; exec 3>&-
exit 0
