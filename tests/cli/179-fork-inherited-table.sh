# A fork child keeps its blocks in a table its parent allocated before the
# fork (a global points to it): the table is the parent's block, not the
# child's, but the child's memory holds it, so the child's 20 blocks of
# 3,000 bytes (child_entry) are still reachable through it, with --why
# "a block inherited from the parent process"; only its lost 4,321-byte
# block (child_lost) is definitely lost. Before, the inherited table was
# never scanned and every block kept in it was called definitely lost.
# The parent's report has the table itself (still reachable: the global).
. "$(dirname "$0")/../lib.sh"
v=$(victim fork-inherit) || exit
src=$ROOT/tests/victims/fork-inherit.c
ls_run "$T/r.json" --why -- "$v"
expect_rc 23
child=$(sed -n 's/^child \([0-9]*\)$/\1/p' "$T/stdout")
parent=$(sed -n 's/^parent \([0-9]*\)$/\1/p' "$T/stdout")
[ -n "$parent" ] && [ -n "$child" ] || { cat "$T/stdout"; fail "victim did not print its pids"; }
j=$T/r.json
expect_json "$j" "proc($child) | .forked and .scanned
	and .classes[\"definitely-lost\"] == {\"bytes\": 4321, \"objects\": 1}
	and .classes[\"indirectly-lost\"].objects == 0 and .classes[\"possibly-lost\"].objects == 0
	and .classes[\"still-reachable\"] == {\"bytes\": 60000, \"objects\": 20}"
expect_json "$j" "proc($child) | [.leaks[] | select(.class == \"definitely-lost\")] | length == 1
	and .[0].stack[0].function == \"child_lost\" and .[0].stack[0].line == $(marker "$src" child-lost)"
expect_json "$j" "proc($child) | [.leaks[] | select(.class == \"still-reachable\")][0]
	| .stack[0].function == \"child_entry\" and .objects == 20
	and (.why.root | startswith(\"a block inherited from the parent process\"))
	and (.why.root | test(\"kept by a global of fork-inherit: table\"))"
expect_json "$j" "proc($parent) | .classes[\"definitely-lost\"].objects == 0
	and .classes[\"still-reachable\"].bytes == 160"
exit 0
