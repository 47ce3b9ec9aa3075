# threads: a joined worker thread leaks 5,005 bytes (worker_leak) and a
# thread still blocked in read() when main returns leaks 6,006 bytes
# (blocked_leak); a third thread's 10,000 blocks are all freed. Exactly those
# two blocks, each from its thread function at its line. The joined
# thread's result is definitely lost (main drops it; only the ended
# thread's descriptor, a stack glibc keeps for reuse, still holds it: dead
# memory, as valgrind says); the blocked thread's live stack holds the
# other: still reachable (listed with --show-reachable).
. "$(dirname "$0")/../lib.sh"
v=$(victim threads) || exit
src=$ROOT/tests/victims/threads.c
ls_run "$T/r.json" --show-reachable -- "$v"
expect_rc 23
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 5005
	and root.classes["still-reachable"] == {"bytes": 6006, "objects": 1}'
expect_json "$j" "root.leaks | sized(5005) | length == 1 and (.[0] | .objects == 1 and .class == \"definitely-lost\"
	and .stack[0].function == \"worker_leak\" and .stack[0].line == $(marker "$src" worker-malloc))"
expect_json "$j" "root.leaks | sized(6006) | length == 1 and (.[0] | .objects == 1 and .class == \"still-reachable\"
	and .stack[0].function == \"blocked_leak\" and .stack[0].line == $(marker "$src" blocked-malloc))"
expect_json "$j" 'root.stats.allocations >= 10002 and root.stats.frees >= 10000'
expect_json "$j" 'root.stats.unmatched_frees == 0'
exit 0
