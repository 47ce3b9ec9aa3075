# many-threads: 2,000 short-lived threads, 8 at a time, 200,000 blocks made
# and freed; 20 of the threads leak 48 bytes each from thread_leak. Exactly
# those 960 bytes are reported: no event of an exiting thread is lost
# (listed with --show-reachable: a cached thread stack may still point to
# one).
. "$(dirname "$0")/../lib.sh"
v=$(victim many-threads) || exit
ls_run "$T/r.json" --show-reachable -- "$v"
expect_leak_rc "$T/r.json"
expect_grep "$T/stdout" '^2000 threads, 20 leaked blocks$'
j=$T/r.json
expect_json "$j" '[root.leaks[].bytes] | add == 960'
expect_json "$j" '([root.leaks[].objects] | add == 20) and root.classes["not-freed"].objects == 0'
expect_json "$j" 'all(root.leaks[]; .stack[0].function == "thread_leak")'
expect_json "$j" 'root.stats.allocations >= 200020 and root.stats.frees >= 200000 and root.stats.unmatched_frees == 0'
exit 0
