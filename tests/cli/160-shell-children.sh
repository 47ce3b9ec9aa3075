# A shell running two victims one after the other (fork + exec) and ending
# with exit 4: both children are reported, each under its own pid with the
# shell as parent, each with leak-one's 1,000 bytes from hello; the shell's
# status 4 passes through.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
ls_run "$T/r.json" -- /bin/sh -c "'$v'; '$v' one; exit 4"
expect_rc 4
j=$T/r.json
expect_json "$j" '.exit == {"code": 4, "signal": null} and root.end == {"code": 4}'
expect_json "$j" '[.processes[] | select(.exe | endswith("/leak-one"))] | length == 2'
expect_json "$j" '(root.pid) as $sh | [.processes[] | select(.exe | endswith("/leak-one"))]
	| all(.[]; .root == false and .ppid == $sh and .pid != $sh
	and .summary.leaked_bytes == 1000 and .leaks[0].stack[0].function == "hello")'
expect_json "$j" '[.processes[] | select(.exe | endswith("/leak-one")) | .pid] | unique | length == 2'
expect_json "$j" "[.processes[] | select(.exe | endswith(\"/leak-one\")) | .command]
	| sort == [\"$v\", \"$v one\"]"
exit 0
