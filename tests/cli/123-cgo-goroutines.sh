# cgo-goroutines: three goroutines on threads of their own each call C's
# leak_sized(k), leaking 2,000 + k bytes; the program ends with os.Exit(3).
# Status 3 passes through; exactly the three leaks are reported, from
# leak_sized at its line with the Go frame main.worker below it - one stack,
# so one group of 3 objects.
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-goroutines) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 3
j=$T/r.json
expect_json "$j" '.exit == {"code": 3, "signal": null} and root.end == {"code": 3}'
expect_json "$j" 'root.summary.leaked_bytes == 6006 and root.summary.leaked_objects == 3'
line=$(marker "$ROOT/tests/victims/cgo-goroutines/leak.c" goroutine-malloc)
expect_json "$j" "root.leaks | length == 1 and (.[0] | .objects == 3 and .bytes == 6006
	and .stack[0].function == \"leak_sized\" and .stack[0].line == $line and has_fn(\"main.worker\"))"
exit 0
