# exit-paths ending by return from main (3), exit() (4) and _exit() (5, no
# atexit handlers, no stdio flush): the status passes through and the
# 4,100-byte leak is reported each time, from leak_before_end at its line.
. "$(dirname "$0")/../lib.sh"
v=$(victim exit-paths) || exit
line=$(marker "$ROOT/tests/victims/exit-paths.c" exit-malloc)
for case in return:3 exit:4 _exit:5; do
	mode=${case%:*} code=${case#*:}
	ls_run "$T/$mode.json" -- "$v" "$mode"
	expect_rc "$code"
	j=$T/$mode.json
	expect_json "$j" ".exit == {\"code\": $code, \"signal\": null}"
	expect_json "$j" "root.end == {\"code\": $code}"
	expect_json "$j" 'root.summary.leaked_bytes == 4100 and root.summary.leaked_objects == 1'
	expect_json "$j" "root.leaks[0] | .bytes == 4100 and .objects == 1
		and .stack[0].function == \"leak_before_end\" and .stack[0].line == $line
		and has_fn(\"main\")"
	expect_json "$j" 'all_leaks | sized(4200) | length == 0'
done
exit 0
