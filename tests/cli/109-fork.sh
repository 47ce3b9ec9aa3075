# fork: parent and child each leak after fork() - the parent 7,007 bytes
# (parent_leak), the child 8,008 (child_leak). Both processes are reported,
# each under its own pid with only its own leak; the child is marked forked
# with the parent as ppid. The parent's block is definitely lost (main
# returned), the child's still reachable (it calls exit() from main, whose
# frame holds it; listed with --show-reachable); leakscope exits 23 for the
# parent's. The text report labels the child by its pid.
# (The child's end may be {}: its status goes to its parent, not to us.)
. "$(dirname "$0")/../lib.sh"
v=$(victim fork) || exit
src=$ROOT/tests/victims/fork.c
ls_run "$T/r.json" --show-reachable -- "$v"
expect_rc 23
parent=$(sed -n 's/^parent \([0-9]*\) .*/\1/p' "$T/stdout")
child=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/stdout")
[ -n "$parent" ] && [ -n "$child" ] || { cat "$T/stdout"; fail "victim did not print its pids"; }
j=$T/r.json
expect_json "$j" '.processes | length == 2'
expect_json "$j" "root.pid == $parent and root.forked == false and root.end == {\"code\": 0}"
expect_json "$j" "proc($child) | .root == false and .forked == true and .ppid == $parent
	and (.end == {\"code\": 0} or .end == {}) and (.exe | endswith(\"/fork\"))"
expect_json "$j" "proc($parent) | .summary.leaked_bytes == 7007 and .summary.leaked_objects == 1
	and (.leaks | length == 1) and (.leaks[0] | .class == \"definitely-lost\" and .stack[0].function == \"parent_leak\"
	and .stack[0].line == $(marker "$src" parent-malloc))"
expect_json "$j" "proc($child) | .summary.leaked_bytes == 0
	and .classes[\"still-reachable\"] == {\"bytes\": 8008, \"objects\": 1}
	and (.leaks | length == 1) and (.leaks[0] | .class == \"still-reachable\" and .stack[0].function == \"child_leak\"
	and .stack[0].line == $(marker "$src" child-malloc))"
# text: one header per process, the child's under its own pid
rc=0
"$LEAKSCOPE" run -- "$v" > "$T/stdout2" 2> "$T/stderr" || rc=$?
expect_rc 23
child=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/stdout2")
parent=$(sed -n 's/^parent \([0-9]*\) .*/\1/p' "$T/stdout2")
expect_grep "$T/stderr" "^leakscope: no leaks \(pid $child, "
expect_grep "$T/stderr" "^  still reachable: 8,008 bytes in 1 object \(--show-reachable lists them\)"
expect_grep "$T/stderr" "^leakscope: 7,007 bytes lost in 1 object \(pid $parent, .*\): 7,007 bytes in 1 object definitely, "
exit 0
