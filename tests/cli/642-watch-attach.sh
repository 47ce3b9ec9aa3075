# leakscope watch PID of a process leakscope attach records: watch-grow,
# started without leakscope, keeps 1000 bytes every 50 ms (grow_cache);
# once attached, watch follows the attach's trace by the process's pid,
# the blocks show the live bytes the attach sees growing with grow_cache
# as the growing site, and watch ends by itself when `leakscope detach`
# completes the trace; the process runs on to its end.
. "$(dirname "$0")/../lib.sh"
v=$(victim watch-grow) || exit
export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
tr=$T/a.lstrace

"$v" 6 > "$T/vout" &
vpid=$!
wait_for_line "$T/vout" "^ready"
"$LEAKSCOPE" attach -o "$tr" "$vpid" 2> "$T/attach.err" &
apid=$!
wait_attached "$T/attach.err" "$vpid" $apid
grep -q "not permitted\|cannot attach" "$T/attach.err" && { kill $vpid; skip "ptrace is not permitted here"; }

"$LEAKSCOPE" watch --interval 300 "$vpid" > "$T/out" 2> "$T/err" &
wpid=$!
sleep 2.5
"$LEAKSCOPE" detach "$vpid" > /dev/null 2> "$T/detach.err" || { cat "$T/detach.err"; fail "detach failed"; }
rc=0
wait $wpid || rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "watch exited $rc"; }
wait $apid || { cat "$T/attach.err"; fail "attach failed"; }
kill -0 $vpid 2> /dev/null || fail "the process did not run on after the detach"

grep -q "^watch '$tr': .*(pid $vpid), .* recording\$" "$T/out" || { cat "$T/out"; fail "no block while attached"; }
grep "^watch '" "$T/out" | tail -n 1 | grep -q ", ended\$" || { cat "$T/out"; fail "watch did not see the end"; }
grep '^  live ' "$T/out" | awk '{ gsub(",", "", $2); print $2 }' | sort -un > "$T/live"
[ "$(wc -l < "$T/live")" -ge 3 ] || { cat "$T/out"; fail "live bytes did not grow while attached"; }
grep -q '  grow_cache watch-grow.c:[0-9]* < main$' "$T/out" || { cat "$T/out"; fail "grow_cache is not the growing site"; }
wait $vpid || fail "watch-grow failed after the detach"
exit 0
