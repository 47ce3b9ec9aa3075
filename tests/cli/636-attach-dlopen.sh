# A library the attached process loads after the attach is rewritten too:
# the program dlopen()s it by a bare name that only its own RUNPATH
# ($ORIGIN) finds - the attach's dlopen hook must keep the caller's
# search path - and its allocations are recorded with their stacks:
# dl_leak_fn's 10,010 bytes definitely lost, from the library.
. "$(dirname "$0")/../lib.sh"
command -v jq > /dev/null || skip "no jq"
lib=$(victim_lib dlleak) || exit
v=$(victim attach-dlopen -Wl,-rpath,'$ORIGIN') || exit
[ "$(dirname "$lib")" = "$(dirname "$v")" ] || fail "the library is not next to the program"

start_waiting "$v"
"$LEAKSCOPE" attach -o "$T/d.lstrace" "$vpid" 2> "$T/attach.err" &
apid=$!
wait_attached "$T/attach.err" "$vpid" $apid
echo load >&3
wait_for_line "$T/out" "^loaded$|^error"
expect_grep "$T/out" "^loaded$"
"$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 || { cat "$T/attach.err"; fail "detach failed"; }
wait $apid || { cat "$T/attach.err"; fail "attach failed"; }
finish_waiting

"$LEAKSCOPE" report -f json -o "$T/d.json" "$T/d.lstrace" || fail "report failed"
expect_json "$T/d.json" "[.exit_leaks.leaks[] | select(.class == \"definitely-lost\"
	and .stack[0].function == \"dl_leak_fn\")][0] | .bytes == 10010 and .objects == 1"
exit 0
