# exec into an untraceable image: exec-first leaks 9,009 bytes, then execs a
# statically linked program that exits 9. The first image's blocks died with
# the exec, so they are no leak; the static image cannot be traced, so its
# pid is listed under "unreported" rather than reported clean. Status 9
# passes through.
. "$(dirname "$0")/../lib.sh"
first=$(victim exec-first) || exit
printf '#include <stdlib.h>\nint main(void) { return malloc(10) ? 9 : 1; }\n' > "$T/static.c"
cc -static -o "$T/static-prog" "$T/static.c" 2> "$T/cc.log" || skip "cannot link statically (no static libc)"
ls_run "$T/r.json" -- "$first" "$T/static-prog"
expect_rc 9
pid=$(sed -n 's/^first image \([0-9]*\) .*/\1/p' "$T/stdout")
j=$T/r.json
expect_json "$j" '.exit == {"code": 9, "signal": null}'
expect_json "$j" 'all_leaks | sized(9009) | length == 0'
expect_json "$j" "[.processes[] | select(.pid == $pid and (.exe | endswith(\"/exec-first\")))
	| .summary.leaked_bytes] | all(. == 0)"
expect_json "$j" ".unreported | any(.[]; .pid == $pid)"
exit 0
