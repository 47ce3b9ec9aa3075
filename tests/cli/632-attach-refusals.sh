# leakscope attach refuses, with a message saying why and exit status 125,
# what it cannot attach: a pid that does not exist, a program whose malloc
# is another allocator's (named), a statically linked program, one a
# debugger already traces (its pid named), another user's process; a pid
# that ends while it attaches is said so, never waited for. Each target
# goes on unharmed, never left stopped. A user attaches to a process of its
# own (not root: nobody here).
. "$(dirname "$0")/../lib.sh"
v=$(victim attach-heap) || exit
lib=$(victim_lib tinyalloc) || exit

refused() { # regex command...
	re=$1; shift
	rc=0; timeout 30 "$@" > "$T/o" 2> "$T/e" || rc=$?
	[ $rc -eq 125 ] || { cat "$T/e"; fail "'$*' exited $rc, not 125"; }
	expect_grep "$T/e" "$re"
	[ -e "$T/r.lstrace" ] && fail "'$*' left a trace"
	return 0
}
not_stopped() {
	grep -q "State:.*[tT]" "/proc/$vpid/status" && fail "the target was left stopped"
	return 0
}

refused "^leakscope: cannot attach to pid 999999999: no process 999999999$" \
	"$LEAKSCOPE" attach -o "$T/r.lstrace" 999999999

start_waiting env LD_PRELOAD="$lib" "$v"
refused "^leakscope: cannot attach to pid $vpid: pid $vpid uses the malloc of .*/tinyalloc\\.so" \
	"$LEAKSCOPE" attach -o "$T/r.lstrace" "$vpid"
not_stopped
finish_waiting

printf '#include <stdio.h>\nint main(void) { char b[8]; puts("ready"); fflush(stdout);
	if (!fgets(b, sizeof b, stdin)) return 1; puts("done"); return 0; }\n' > "$T/static.c"
if cc -static -o "$T/static-prog" "$T/static.c" 2> "$T/cc.log"; then
	start_waiting "$T/static-prog"
	refused "statically linked" "$LEAKSCOPE" attach -o "$T/r.lstrace" "$vpid"
	not_stopped
	finish_waiting
fi

if command -v strace > /dev/null; then
	start_waiting "$v"
	strace -p "$vpid" -o /dev/null 2> /dev/null &
	spid=$!
	i=0
	until grep -q "TracerPid:[[:space:]]*$spid" "/proc/$vpid/status"; do
		i=$((i + 1)); [ $i -lt 100 ] || fail "strace never traced the target"; sleep 0.05
	done
	refused "already traced by pid $spid" "$LEAKSCOPE" attach -o "$T/r.lstrace" "$vpid"
	kill $spid; wait $spid 2> /dev/null
	finish_waiting
fi

if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
	as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	chmod 711 "$T" && mkdir -m 777 "$T/nobody"
	start_waiting "$v"
	refused "ptrace is not permitted on pid $vpid" \
		$as_nobody env HOME="$T/nobody" "$LEAKSCOPE" attach -o "$T/r.lstrace" "$vpid"
	not_stopped
	finish_waiting
	# nobody attaches to its own process
	start_waiting $as_nobody "$(dirname "$(readlink -f "$LEAKSCOPE")")/../build/victims/attach-server"
	$as_nobody env HOME="$T/nobody" "$LEAKSCOPE" attach -q -o "$T/nobody/n.lstrace" "$vpid" \
		2> "$T/nobody.err" &
	apid=$!
	sleep 1
	$as_nobody env HOME="$T/nobody" "$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 ||
		{ cat "$T/nobody.err"; fail "nobody could not detach"; }
	wait $apid || { cat "$T/nobody.err"; fail "nobody's attach failed"; }
	echo go >&3; exec 3>&-
	wait $vpid || fail "nobody's server failed"
	[ -s "$T/nobody/n.lstrace" ] || fail "nobody's trace is empty"
fi

# a pid that ends during the attach: said, not waited for
sleep 0.3 &
spid=$!
rc=0; timeout 30 "$LEAKSCOPE" attach -q -o "$T/e.lstrace" "$spid" > /dev/null 2> "$T/e" || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 125 ] || { cat "$T/e"; fail "attach to an ending pid exited $rc"; }
wait $spid || fail "sleep failed"
exit 0
