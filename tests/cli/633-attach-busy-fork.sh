# leakscope attach on a server busy in four more threads that allocate and
# free all the time (a thread may be stopped inside malloc), which forks
# children while attached: the requests' leaks are found as on an idle
# server, each child has its own trace with its 50 bytes lost in
# child_work, the churning threads' blocks are no leak, and after detach
# the server runs on and ends normally.
. "$(dirname "$0")/../lib.sh"
v=$(victim attach-server) || exit
command -v jq > /dev/null || skip "no jq"

start_waiting "$v" 4
"$LEAKSCOPE" attach -o "$T/a.lstrace" "$vpid" 2> "$T/attach.err" &
apid=$!
wait_attached "$T/attach.err" "$vpid" $apid
for n in 1 2 3 4 5 6; do
	echo req >&3; wait_for_line "$T/out" "^ok $n$"
done
echo fork >&3; wait_for_line "$T/out" "^child 0$"
echo fork >&3
i=0
until [ "$(grep -c '^child 0$' "$T/out")" -eq 2 ]; do
	i=$((i + 1)); [ $i -lt 300 ] || fail "the second child did not end"; sleep 0.02
done
sleep 0.3   # the children's traces are written as they end
"$LEAKSCOPE" detach "$vpid" > /dev/null 2>&1 || { cat "$T/attach.err"; fail "detach failed"; }
wait $apid || { cat "$T/attach.err"; fail "attach failed"; }
echo req >&3; wait_for_line "$T/out" "^ok 7$"
echo go >&3; exec 3>&-
rc=0; wait $vpid || rc=$?
[ $rc -eq 0 ] || fail "the server exited $rc"
expect_grep "$T/out" "^done 7$"

"$LEAKSCOPE" report -f json -o "$T/a.json" "$T/a.lstrace" || fail "report failed"
expect_json "$T/a.json" "[.exit_leaks.leaks[] | select(.class == \"definitely-lost\"
	and .stack[0].function == \"handle_request\")][0] | .bytes == 500 and .objects == 5"
expect_json "$T/a.json" "[.exit_leaks.leaks[] | select(.stack[0].function == \"churn\"
	and (.class == \"definitely-lost\" or .class == \"indirectly-lost\"))] | length == 0"
children=$(ls "$T"/a.*.lstrace 2> /dev/null | wc -l)
[ "$children" -eq 2 ] || { ls "$T"; fail "$children children's traces, not 2"; }
for c in "$T"/a.*.lstrace; do
	"$LEAKSCOPE" report -f json -o "$T/c.json" "$c" || fail "report of $c failed"
	expect_json "$T/c.json" "[.exit_leaks.leaks[] | select(.class == \"definitely-lost\"
		and .stack[0].function == \"child_work\")][0] | .bytes == 50 and .objects == 1"
done
exit 0
