# exit-paths ending by abort(): leakscope exits 134 (128 + SIGABRT), the JSON
# says signal 6, and the 4,100-byte leak is still reported.
. "$(dirname "$0")/../lib.sh"
v=$(victim exit-paths) || exit
ulimit -c 0
ls_run "$T/r.json" -- "$v" abort
expect_rc 134
expect_json "$T/r.json" '.exit == {"code": 134, "signal": 6}'
expect_json "$T/r.json" 'root.end == {"signal": 6}'
expect_json "$T/r.json" 'root.summary.leaked_bytes == 4100 and root.summary.leaked_objects == 1'
expect_json "$T/r.json" 'root.leaks[0] | .bytes == 4100 and .stack[0].function == "leak_before_end"'
exit 0
