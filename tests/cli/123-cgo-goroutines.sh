# cgo-goroutines: three goroutines on threads of their own each call C's
# leak_sized(k), leaking 2,000 + k bytes; the program ends with os.Exit(3).
# Status 3 passes through; exactly the three leaks are reported, from
# leak_sized at its line with the Go frame main.worker below it - one stack,
# so one group of 3 objects (or, as the goroutines' stacks may still point
# to some when the process ends, one group per class, listed with
# --show-reachable: 3 objects in all). The program's status wins over 23.
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-goroutines) || exit
ls_run "$T/r.json" --show-reachable -- "$v"
expect_rc 3
j=$T/r.json
expect_json "$j" '.exit == {"code": 3, "signal": null} and root.end == {"code": 3}'
expect_json "$j" 'root.scanned and ([root.classes[]] | (map(.bytes) | add) == 6006 and (map(.objects) | add) == 3)
	and root.classes["not-freed"].objects == 0'
line=$(marker "$ROOT/tests/victims/cgo-goroutines/leak.c" goroutine-malloc)
expect_json "$j" "(root.leaks | map(.stack) | unique | length == 1) and all(root.leaks[];
	.stack[0].function == \"leak_sized\" and .stack[0].line == $line and has_fn(\"main.worker\"))"
exit 0
