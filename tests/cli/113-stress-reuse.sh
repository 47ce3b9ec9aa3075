# stress-reuse: 4 threads, 1,000,000 blocks, each freed by another thread
# than the one that allocated it, addresses reused at once. Exactly the 10
# blocks of 333 bytes leaked from stress_leak are reported: an address freed
# in one thread and reallocated in another is never mistaken for a leak or
# an unmatched free. Which of them a dead thread's stack still points to
# varies: --show-reachable lists all ten whatever their class.
. "$(dirname "$0")/../lib.sh"
v=$(victim stress-reuse) || exit
ls_run "$T/r.json" --show-reachable -- "$v"
expect_leak_rc "$T/r.json"
j=$T/r.json
expect_json "$j" '[root.classes[]] | (map(.bytes) | add) == 3330 and (map(.objects) | add) == 10'
expect_json "$j" 'root.classes["not-freed"].objects == 0'
expect_json "$j" 'all(root.leaks[]; .bytes % 333 == 0 and .stack[0].function == "stress_leak")'
expect_json "$j" '[root.leaks[].objects] | add == 10'
expect_json "$j" "root.leaks[0].stack[0].line == $(marker "$ROOT/tests/victims/stress-reuse.c" stress-malloc)"
expect_json "$j" 'root.stats | .allocations >= 1000000 and .frees >= 1000000 and .unmatched_frees == 0'
exit 0
