# go-heap-graph: a Go program's heap is a graph, not a root (collector/
# goheap.h). With Go's collector off, a C block whose only pointers are in
# dead Go objects is definitely lost; one held by a live Go object (through
# a global slice) or by an object only a live goroutine's stack reaches is
# still reachable, in every run; --why names a live Go object and what
# keeps it. A binary without DWARF (go build -ldflags=-w) keeps today's
# whole-heap root, and the report says so (heap_note).
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-goheap) || exit
for run in 1 2 3 4 5 6; do
	ls_run "$T/r.json" --why -- "$v"
	expect_rc 23
	j=$T/r.json
	expect_json "$j" 'root.classes["definitely-lost"] == {"bytes": 3333, "objects": 1}'
	expect_json "$j" 'root.leaks | sized(3333) | .[0].stack | any(.[]; .function == "main.makeDead")'
	expect_json "$j" 'root.leaks | sized(4444) | .[0].class == "still-reachable"
		and (.[0].why.root | startswith("a live object of Go'"'"'s heap"))'
	expect_json "$j" 'root.leaks | sized(5555) | .[0].class == "still-reachable"'
	expect_json "$j" 'root | has("heap_note") | not'
done
# without DWARF: the heap stays a root, with a note
(cd "$ROOT/tests/victims/cgo-goheap" && go_env go build -ldflags=-w -o "$T/nodwarf" .) ||
	fail "cannot build the victim without DWARF"
ls_run "$T/n.json" -- "$T/nodwarf"
expect_json "$T/n.json" 'root.heap_note | startswith("Go'"'"'s heap was scanned whole, as a root")'
exit 0
