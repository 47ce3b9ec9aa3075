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
i=0
until grep -q "attached to pid $vpid" "$T/attach.err"; do
	kill -0 $apid 2> /dev/null || { cat "$T/attach.err"; fail "attach ended"; }
	i=$((i + 1)); [ $i -lt 300 ] || fail "never attached"; sleep 0.05
done
echo load >&3
i=0
until grep -q "^loaded$\|^error" "$T/out"; do
	i=$((i + 1)); [ $i -lt 300 ] || fail "no answer to load"; sleep 0.02
done
expect_grep "$T/out" "^loaded$"
"$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 || { cat "$T/attach.err"; fail "detach failed"; }
wait $apid || { cat "$T/attach.err"; fail "attach failed"; }
finish_waiting

"$LEAKSCOPE" report -f json -o "$T/d.json" "$T/d.lstrace" || fail "report failed"
expect_json "$T/d.json" "[.exit_leaks.leaks[] | select(.class == \"definitely-lost\"
	and .stack[0].function == \"dl_leak_fn\")][0] | .bytes == 10010 and .objects == 1"
exit 0
