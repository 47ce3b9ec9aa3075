# exec: exec-first leaks 9,009 bytes, then execs exec-second, which leaks
# 9,119 bytes and exits 7. The pid's report is the second image's: its leak
# from second_leak; the first image's block died with the exec and is
# reported nowhere. Status 7 passes through. (Whether a register or a stack
# word still holds the second block when it ends is the compiler's business:
# --show-reachable lists it whatever its class.)
. "$(dirname "$0")/../lib.sh"
first=$(victim exec-first) || exit
second=$(victim exec-second) || exit
ls_run "$T/r.json" --show-reachable -- "$first" "$second"
expect_rc 7
pid=$(sed -n 's/^second image \([0-9]*\) .*/\1/p' "$T/stdout")
expect_grep "$T/stdout" "^first image $pid "
j=$T/r.json
expect_json "$j" '.exit == {"code": 7, "signal": null}'
expect_json "$j" 'all_leaks | sized(9009) | length == 0'
expect_json "$j" '[all_leaks[] | select(has_fn("first_leak"))] | length == 0'
expect_json "$j" "[.processes[] | select(.pid == $pid and (.exe | endswith(\"/exec-second\")))]
	| length == 1 and (.[0] | .end == {\"code\": 7} and (.leaks | length == 1)
	and (.leaks[0] | .bytes == 9119 and .objects == 1 and .class != \"not-freed\" and .stack[0].function == \"second_leak\"
	and .stack[0].line == $(marker "$ROOT/tests/victims/exec-second.c" second-malloc)
	and .stack[0].module == \"exec-second\"))"
exit 0
