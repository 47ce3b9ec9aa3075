# exit-paths ending by return from main (3), exit() (4) and _exit() (5, no
# atexit handlers, no stdio flush): the status passes through (the program
# failed: not 23) and the 4,100-byte block is reported each time, from
# leak_before_end at its line: definitely lost once main returned, still
# reachable from main's frame when it calls exit() or _exit() (listed with
# --show-reachable).
. "$(dirname "$0")/../lib.sh"
v=$(victim exit-paths) || exit
line=$(marker "$ROOT/tests/victims/exit-paths.c" exit-malloc)
for case in return:3 exit:4 _exit:5; do
	mode=${case%:*} code=${case#*:}
	case $mode in
	return) cls=definitely-lost lost=4100 ;;
	*) cls=still-reachable lost=0 ;;
	esac
	ls_run "$T/$mode.json" --show-reachable -- "$v" "$mode"
	expect_rc "$code"
	j=$T/$mode.json
	expect_json "$j" ".exit == {\"code\": $code, \"signal\": null}"
	expect_json "$j" "root.end == {\"code\": $code}"
	expect_json "$j" "root.summary.leaked_bytes == $lost
		and root.classes[\"$cls\"] == {\"bytes\": 4100, \"objects\": 1}"
	expect_json "$j" "root.leaks | sized(4100) | length == 1 and (.[0] | .objects == 1
		and .class == \"$cls\"
		and .stack[0].function == \"leak_before_end\" and .stack[0].line == $line
		and has_fn(\"main\"))"
	expect_json "$j" 'all_leaks | sized(4200) | length == 0'
done
exit 0
