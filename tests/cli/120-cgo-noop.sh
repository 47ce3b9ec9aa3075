# cgo-noop (seed story: leak checking cgo programs): a Go program calling a
# C function that does nothing, ending the Go way without C.exit(0). No atexit
# handler runs, yet leakscope reports on it - and reports nothing: the Go
# and cgo runtime's own blocks are suppressed.
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-noop) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 0
expect_grep "$T/stdout" '^calling noop\(\) \.\.\.$'
expect_json "$T/r.json" '.exit == {"code": 0, "signal": null}'
expect_json "$T/r.json" 'root.summary.leaked_bytes == 0 and root.leaks == []'
expect_json "$T/r.json" 'root.stats.allocations >= 1'
exit 0
