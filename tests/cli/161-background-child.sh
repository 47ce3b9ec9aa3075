# A shell starts a victim in the background and exits at once. leakscope
# ends with the program (it does not wait for the straggler), lists the
# still running victim under "unreported" with its pid and command, and
# leaves it running.
. "$(dirname "$0")/../lib.sh"
v=$(victim exit-paths) || exit
start=$(date +%s)
ls_run "$T/r.json" -- /bin/sh -c "'$v' wait '$T/pid' & while [ ! -s '$T/pid' ]; do sleep 0.05; done; exit 6"
expect_rc 6
secs=$(( $(date +%s) - start ))
pid=$(cat "$T/pid")
alive=0; kill -0 "$pid" 2> /dev/null && alive=1
kill -9 "$pid" 2> /dev/null
[ $secs -lt 10 ] || fail "leakscope took ${secs}s: it waited for the background process"
[ $alive -eq 1 ] || fail "the background process did not survive leakscope"
j=$T/r.json
expect_json "$j" '.exit == {"code": 6, "signal": null}'
expect_json "$j" ".unreported | map(select(.pid == $pid)) | length == 1
	and (.[0].command | startswith(\"$v wait\"))"
expect_json "$j" "[.processes[] | select(.pid == $pid)] | length == 0"
exit 0
