# fork-threads: ten forks while three threads churn through malloc/free.
# No child hangs or dies; each child i is reported under its own pid with
# exactly its 700 + i bytes from child_leak (listed with --show-reachable:
# the child's frames may still hold it); the parent reports nothing.
. "$(dirname "$0")/../lib.sh"
v=$(victim fork-threads) || exit
ls_run "$T/r.json" --show-reachable -- "$v"
expect_leak_rc "$T/r.json"
expect_grep "$T/stdout" '^parent [0-9]+ ok$'
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 0 and root.leaks == [] and root.stats.unmatched_frees == 0'
expect_json "$j" '[.processes[] | select(.forked)] | length == 10'
i=0
while [ $i -lt 10 ]; do
	pid=$(sed -n "s/^child $i pid \([0-9]*\) .*/\1/p" "$T/stdout")
	[ -n "$pid" ] || fail "child $i did not report"
	expect_json "$j" "root.pid as \$r | proc($pid) | .ppid == \$r and .scanned and (.leaks | length == 1)
		and (.leaks[0] | .bytes == $((700 + i)) and .objects == 1 and .class != \"not-freed\"
		and .stack[0].function == \"child_leak\")"
	i=$((i + 1))
done
exit 0
