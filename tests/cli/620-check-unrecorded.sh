# leakscope check PID on a program leakscope did not start: its blocks are
# read from glibc's heap (main arena, a second thread's arena, an mmapped
# chunk; tcache and fast bin chunks left out), grouped by size as
# "allocated before attach", and classed by the scan. Exactly the lost
# blocks are definitely lost (sizes are malloc's usable sizes: 1,111 ->
# 1,112, 3,333 -> 3,336, 200,000 -> 200,688), the held ones still
# reachable, no freed chunk is a block; the program goes on and ends
# normally; --why names the globals that hold them. LEAKSCOPE may name
# another build (622: the sanitizer one).
. "$(dirname "$0")/../lib.sh"
v=$(victim attach-heap) || exit

start_waiting "$v"

"$LEAKSCOPE" check -f json --why "$vpid" > "$T/check.json" 2> "$T/check.err" ||
	{ cat "$T/check.err"; fail "check failed"; }
[ -s "$T/check.err" ] && { cat "$T/check.err"; fail "check wrote to stderr"; }
j=$T/check.json
p='.processes[0]'
expect_json "$j" ".processes | length == 1"
expect_json "$j" "$p.pid == $vpid and $p.scanned and ($p.alloc_note | test(\"without allocation stacks\"))"
expect_json "$j" "$p.classes[\"definitely-lost\"] == {\"bytes\": $((7 * 1112 + 3 * 3336 + 200688)), \"objects\": 11}"
expect_json "$j" "$p.classes[\"indirectly-lost\"].objects == 0 and $p.classes[\"possibly-lost\"].objects == 0"
group() { # class size objects
	expect_json "$j" "[$p.leaks[] | select(.class == \"$1\" and .stack[0].function == \"allocated before attach\"
		and .stack[0].module == \"blocks of $2 bytes\" and .objects == $3 and .bytes == $2 * $3)] | length == 1"
}
group definitely-lost 1112 7
group definitely-lost 3336 3
group definitely-lost 200688 1
group still-reachable 2232 5
group still-reachable 4456 2
# --why names what keeps them: the module table comes from the maps
expect_json "$j" "[$p.leaks[] | select(.stack[0].module == \"blocks of 2232 bytes\")][0].why.root
	== \"a global of attach-heap: held\""
expect_json "$j" "[$p.leaks[] | select(.stack[0].module == \"blocks of 4456 bytes\")][0].why.root
	== \"a global of attach-heap: thread_held\""
# freed chunks are no blocks: tcache (100 -> 104), fast bins (40), bins (5,000)
for size in 104 40 5000; do
	expect_json "$j" "[$p.leaks[] | select(.stack[0].module == \"blocks of $size bytes\")] | length == 0"
done
expect_json "$j" "$p.attach.arenas == 2 and $p.attach.mmapped == 1 and $p.attach.in_tcache >= 20
	and $p.attach.in_fastbins >= 3 and $p.attach.pause_us > 0 and $p.attach.blocks >= 22"

"$LEAKSCOPE" check "$vpid" > "$T/check.txt" 2>&1 || { cat "$T/check.txt"; fail "text check failed"; }
expect_grep "$T/check.txt" "7,784 bytes in 7 objects definitely lost, allocated from:"
expect_grep "$T/check.txt" "#0 +allocated before attach .*\\(blocks of 1112 bytes\\)"
expect_grep "$T/check.txt" "note: leakscope did not start this process"

# the program goes on as if nothing happened
finish_waiting
[ -s "$T/err" ] && { cat "$T/err"; fail "the victim wrote to stderr"; }
exit 0
