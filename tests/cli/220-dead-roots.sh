# dead-roots: memory that is dead at the end of a process is no root, at
# -O0 and -O2: the stacks, descriptors and static TLS of threads that ended
# (glibc keeps them mapped), and the exit path's frames below where main
# returned or exit() was called. What only they point to is definitely
# lost, as valgrind and LeakSanitizer say; what a live global holds stays
# reachable.
. "$(dirname "$0")/../lib.sh"
for opt in O0 O2; do
	v=$(victim "thread-ended@$opt" "-$opt") || exit
	ls_run "$T/t.json" --show-reachable -- "$v"
	expect_rc 23
	j=$T/t.json
	for b in 64 77 33 99; do
		expect_json "$j" "root.leaks | sized($b) | length == 1 and .[0].class == \"definitely-lost\" and .[0].objects == 1"
	done
	expect_json "$j" 'root.classes["definitely-lost"] == {"bytes": 273, "objects": 4}'
	expect_json "$j" 'root.leaks | sized(55) | .[0].class == "still-reachable"'

	v=$(victim "exit-stale@$opt" "-$opt") || exit
	for how in "" exit; do
		ls_run "$T/e.json" -- "$v" $how
		expect_rc 23
		expect_json "$T/e.json" 'root.classes["definitely-lost"] == {"bytes": 100, "objects": 1}'
		expect_json "$T/e.json" 'root.leaks | sized(100) | .[0].stack[0].function | IN("main", "leave_now")'
	done
done
exit 0
