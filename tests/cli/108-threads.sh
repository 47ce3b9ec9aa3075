# threads: a joined worker thread leaks 5,005 bytes (worker_leak) and a
# thread still blocked in read() when main returns leaks 6,006 bytes
# (blocked_leak); a third thread's 10,000 blocks are all freed. Exactly those
# two leaks, each from its thread function at its line.
. "$(dirname "$0")/../lib.sh"
v=$(victim threads) || exit
src=$ROOT/tests/victims/threads.c
ls_run "$T/r.json" -- "$v"
expect_rc 0
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 11011 and root.summary.leaked_objects == 2'
expect_json "$j" "root.leaks | sized(5005) | length == 1 and (.[0] | .objects == 1
	and .stack[0].function == \"worker_leak\" and .stack[0].line == $(marker "$src" worker-malloc))"
expect_json "$j" "root.leaks | sized(6006) | length == 1 and (.[0] | .objects == 1
	and .stack[0].function == \"blocked_leak\" and .stack[0].line == $(marker "$src" blocked-malloc))"
expect_json "$j" 'root.stats.allocations >= 10002 and root.stats.frees >= 10000'
expect_json "$j" 'root.stats.unmatched_frees == 0'
exit 0
