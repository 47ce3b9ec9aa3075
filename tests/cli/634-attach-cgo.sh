# leakscope attach on a Go program with cgo that leakscope did not start,
# its runtime's threads busy (goroutines allocating, threads parked in
# futex or epoll): the C leak made while attached is found (200 bytes a
# request but the last, from handle_request called by main.main), the Go
# heap makes no false leak, and after detach the program runs on and ends
# normally.
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-server) || exit
command -v jq > /dev/null || skip "no jq"

start_waiting "$v"
"$LEAKSCOPE" attach -o "$T/g.lstrace" "$vpid" 2> "$T/attach.err" &
apid=$!
wait_attached "$T/attach.err" "$vpid" $apid
for n in 1 2 3 4 5; do
	echo req >&3; wait_for_line "$T/out" "^ok $n$"
done
"$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 || { cat "$T/attach.err"; fail "detach failed"; }
wait $apid || { cat "$T/attach.err"; fail "attach failed"; }
echo req >&3; wait_for_line "$T/out" "^ok 6$"
echo go >&3; exec 3>&-
rc=0; wait $vpid || rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "the program exited $rc"; }
expect_grep "$T/out" "^done 6$"

"$LEAKSCOPE" report -f json -o "$T/g.json" "$T/g.lstrace" || fail "report failed"
expect_json "$T/g.json" "[.exit_leaks.leaks[] | select(.class == \"definitely-lost\"
	and .stack[0].function == \"handle_request\")][0]
	| .bytes == 800 and .objects == 4 and ([.stack[].function] | index(\"main.main\") != null)"
expect_json "$T/g.json" "[.exit_leaks.leaks[] | select(.class == \"definitely-lost\"
	and .stack[0].function != \"handle_request\"
	and .stack[0].function != \"allocated before attach\")] | length == 0"
exit 0
