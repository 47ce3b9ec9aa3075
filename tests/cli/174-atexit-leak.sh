# atexit-leak: leaks made after main returned, by an atexit handler (3,333
# bytes from late_leak) and a destructor (3,334 from dtor_leak), are
# reported like any other: both are kept in globals, so still reachable
# (listed with --show-reachable), and the run succeeds.
. "$(dirname "$0")/../lib.sh"
v=$(victim atexit-leak) || exit
ls_run "$T/r.json" --show-reachable -- "$v"
expect_rc 0
j=$T/r.json
expect_json "$j" 'root.leaks | sized(3333) | length == 1 and (.[0] | .stack[0].function == "late_leak" and .class == "still-reachable")'
expect_json "$j" 'root.leaks | sized(3334) | length == 1 and (.[0] | .stack[0].function == "dtor_leak" and .class == "still-reachable")'
expect_json "$j" 'root.summary.leaked_bytes == 0
	and root.classes["still-reachable"] == {"bytes": 6667, "objects": 2}'
exit 0
