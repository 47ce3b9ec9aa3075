# record --paused opened by `leakscope start` and closed again by `stop`:
# only the 10 x 2222 bytes allocated while the window was open are in the
# trace, with their frees (made after it closed again); the allocations
# and frees of blocks made outside it are not, and the trace is consistent.
# record --no-control serves nothing: the client says so.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim phases) || exit
export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
tr=$T/p.lstrace

wait_for() { # word
	i=0
	until grep -q "^$1" "$T/out"; do
		i=$((i + 1)); [ $i -lt 200 ] || { cat "$T/err"; fail "the victim never said $1"; }
		sleep 0.05
	done
}

rm -f "$T/in" && mkfifo "$T/in"
"$LEAKSCOPE" record --paused -o "$tr" -- "$v" < "$T/in" > "$T/out" 2> "$T/err" &
recpid=$!
exec 3> "$T/in"
wait_for ready
pid=$(awk '/ready/ {print $2}' "$T/out")
"$LEAKSCOPE" start "$tr" || fail "start"
echo go >&3
wait_for two
"$LEAKSCOPE" stop "$pid" || fail "stop"
echo go >&3
wait_for three
echo go >&3
exec 3>&-
rc=0; wait $recpid || rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "record exited $rc"; }
grep -Eq 'Sanitizer|runtime error' "$T/err" && { cat "$T/err"; fail "sanitizer report"; }

ls_dump "$tr" "$T/d"; [ "$drc" = 0 ] || { cat "$T/d.err"; fail "dump"; }
consistent "$T/d"
[ "$(count_allocs "$T/d" "$(site_stack "$T/d" while_stopped)" 2222)" = 10 ] ||
	fail "the allocations of the open window"
n=$(grep -c '^[0-9.]* alloc ' "$T/d")
[ "$n" = 10 ] || fail "$n allocations in the trace, not the 10 of the open window"
n=$(grep -c '^[0-9.]* free ' "$T/d")
[ "$n" = 10 ] || fail "$n frees in the trace, not those of the 10 blocks it holds"
expect_grep "$T/d" '^[0-9.]+ end events=[0-9]+ allocs=10 frees=10 '

# --no-control: no socket (no out of the run before: its "ready" would be
# read before the new run's redirection empties the file)
rm -f "$T/in" "$T/out" && mkfifo "$T/in"
"$LEAKSCOPE" record --no-control -o "$T/n.lstrace" -- "$v" < "$T/in" > "$T/out" 2> "$T/err" &
recpid=$!
exec 3> "$T/in"
wait_for ready
pid=$(awk '/ready/ {print $2}' "$T/out")
rc=0; "$LEAKSCOPE" mark "$pid" hello 2> "$T/m.err" || rc=$?
[ $rc -eq 1 ] || fail "mark of a --no-control recording exited $rc"
expect_grep "$T/m.err" "no running recording records pid $pid"
printf 'a\nb\nc\n' >&3
exec 3>&-
rc=0; wait $recpid || rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "record --no-control exited $rc"; }
exit 0
