# leakscope attach on a C++ server leakscope did not start: operator new,
# new[] and the aligned new reach the interposer through libstdc++'s own
# GOT entries for malloc, the sized and aligned deletes through free's;
# the leaks made while attached are found, operator new called from
# handle_request, with their bytes (each request loses its Widget, 48, and
# int[10], 40, at once - a global holds only the last - and the Block, 128,
# but the last request's), nothing it deleted is reported.
. "$(dirname "$0")/../lib.sh"
command -v c++ > /dev/null || skip "no c++ compiler"
v=$(victim attach-cxx) || exit
command -v jq > /dev/null || skip "no jq"

start_waiting "$v"
"$LEAKSCOPE" attach -o "$T/c.lstrace" "$vpid" 2> "$T/attach.err" &
apid=$!
wait_attached "$T/attach.err" "$vpid" $apid
for n in 1 2 3 4 5; do
	echo req >&3; wait_for_line "$T/out" "^ok $n$"
done
"$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 || { cat "$T/attach.err"; fail "detach failed"; }
wait $apid || { cat "$T/attach.err"; fail "attach failed"; }
echo go >&3; exec 3>&-
rc=0; wait $vpid || rc=$?
[ $rc -eq 0 ] || fail "the server exited $rc"
expect_grep "$T/out" "^done 5$"

"$LEAKSCOPE" report -f json -o "$T/c.json" "$T/c.lstrace" || fail "report failed"
j=$T/c.json
lost='[.exit_leaks.leaks[] | select(.class == "definitely-lost" and
	(.stack | map(.function) | index("handle_request") != null))]'
expect_json "$j" "$lost | map(.bytes) | add == 5 * 48 + 5 * 40 + 4 * 128"
expect_json "$j" "$lost | map(.objects) | add == 14"
expect_json "$j" "$lost | all(.stack[0].function | test(\"^operator new\"))"
expect_json "$j" "$lost | all(.stack[1].function == \"handle_request\")"
expect_json "$j" "[$lost[] | select(.stack[0].function | test(\"align_val_t\"))][0]
	| .bytes == 4 * 128 and .objects == 4"
exit 0
