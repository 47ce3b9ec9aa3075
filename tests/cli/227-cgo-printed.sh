# cgo-printed: the seed's cgo case. A C.malloc'ed block whose pointer was
# printed with fmt.Printf and dropped is definitely lost (its copies are in
# dead Go objects), as valgrind says; a block held by a live Go map stays
# still reachable - in every run, whichever thread is on a goroutine stack
# (inside Go's heap) when the process ends.
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-printed) || exit
for run in 1 2 3 4 5 6; do
	ls_run "$T/r.json" --show-reachable -- "$v"
	expect_rc 23
	expect_json "$T/r.json" 'root.classes["definitely-lost"] == {"bytes": 1000, "objects": 1}'
	expect_json "$T/r.json" 'root.leaks | sized(1000) | .[0].stack | any(.[]; .function == "main.leak")'
	expect_json "$T/r.json" 'root.leaks | sized(2000) | .[0].class == "still-reachable"'
done
exit 0
