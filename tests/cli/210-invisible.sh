# invisible: the program sees the same process state under `run` (with and
# without the scan) and `record` as alone - descriptors, signal
# dispositions and mask (also an ignored SIGINT it inherits), rlimits,
# group, session, umask, environment but the documented variables,
# libraries but the interposer - and a daemon that closes every inherited
# descriptor and reuses 3 and 4 reads back exactly what it wrote. A
# pipeline killed by SIGPIPE ends 141 as it does alone; a child stopped by
# SIGSTOP shows state T, not a tracee's t.
. "$(dirname "$0")/../lib.sh"
v=$(victim observe-self) || exit

plain() { "$@" > "$T/plain.out" 2> /dev/null; echo "$?" >> "$T/plain.out"; }
under() { # name leakscope-args...
	name=$1; shift
	"$LEAKSCOPE" "$@" > "$T/$name.out" 2> "$T/$name.err"
	echo "$?" >> "$T/$name.out"
	diff "$T/plain.out" "$T/$name.out" > "$T/$name.diff" || {
		cat "$T/$name.diff"; head -c 2000 "$T/$name.err"
		fail "$name: the program saw something else than alone (< alone, > under leakscope)"
	}
}

plain "$v" "$T"
grep -q '^pipe on 3 4$' "$T/plain.out" || fail "the victim did not reuse 3 and 4"
grep -q '^0$' "$T/plain.out" || fail "the victim failed alone"
under run run --exit-code 0 -- "$v" "$T"
under run-no-scan run --no-scan --exit-code 0 -- "$v" "$T"
under record record -o "$T/r.lstrace" -- "$v" "$T"

# an ignored SIGINT and a blocked SIGUSR1 are inherited as they were
( trap '' INT; plain "$v" "$T" )
grep -q '^signal 2 disposition ignored$' "$T/plain.out" || fail "the shell did not ignore SIGINT"
( trap '' INT; under run-int run --exit-code 0 -- "$v" "$T" )

# SIGPIPE: `yes | head -1` ends 141
out=$("$LEAKSCOPE" run --exit-code 0 -- bash -c 'yes | head -n 1 > /dev/null; echo "${PIPESTATUS[0]}"' 2> "$T/pipe.err")
[ "$out" = 141 ] || { cat "$T/pipe.err"; fail "yes | head -1: yes ended $out, not 141 (SIGPIPE)"; }
grep -q "Broken pipe" "$T/pipe.err" && fail "'Broken pipe' printed under leakscope"

# a child stopped by SIGSTOP is 'T' in /proc and ps (a tracee would be 't'),
# and is traced again once continued
state=$("$LEAKSCOPE" run --exit-code 0 -- sh -c 'sleep 3 & p=$!; sleep 0.3; kill -STOP $p; sleep 0.3;
	s=$(sed "s/^.*) //" /proc/$p/stat | cut -d" " -f1); kill -CONT $p; kill $p; wait $p 2> /dev/null; echo $s' 2> /dev/null)
[ "$state" = T ] || fail "a stopped child's state under leakscope: '$state', not T"
exit 0
