# exit-paths crashing on a NULL store: leakscope exits 139 (128 + SIGSEGV),
# the JSON says signal 11, and the 4,100-byte block is still reported
# (reachable from main's frame, scanned at the crash).
. "$(dirname "$0")/../lib.sh"
v=$(victim exit-paths) || exit
ulimit -c 0
ls_run "$T/r.json" --show-reachable -- "$v" segv
expect_rc 139
expect_json "$T/r.json" '.exit == {"code": 139, "signal": 11}'
expect_json "$T/r.json" 'root.end == {"signal": 11}'
# main's frame still holds the block: scanned at the crash, it is reachable
expect_json "$T/r.json" 'root.summary.leaked_bytes == 0
	and root.classes["still-reachable"] == {"bytes": 4100, "objects": 1}'
expect_json "$T/r.json" 'root.leaks | sized(4100) | length == 1
	and (.[0] | .class == "still-reachable" and .stack[0].function == "leak_before_end")'
exit 0
