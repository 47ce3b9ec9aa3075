# leakscope check PID on a forked daemon's child whose heap grew after
# the fork: its [heap] is two lines of /proc/PID/maps (the kernel cannot
# grow the brk area in place in a mapping shared at the fork), one heap
# for glibc. Its blocks are all read: the 9 lost blocks of 7,777 bytes
# (usable 7,784), allocated past the first line's end, are definitely
# lost; the 64 held ones of 60,000 (usable 60,008) still reachable.
. "$(dirname "$0")/../lib.sh"
v=$(victim forked-heap) || exit

start_waiting "$v"
child=$(sed -n 's/^ready //p' "$T/out")
lines=$(grep -c '\[heap\]$' "/proc/$child/maps")
echo "the child's heap: $lines lines of its maps"

"$LEAKSCOPE" check -f json --why "$child" > "$T/check.json" 2> "$T/check.err" ||
	{ cat "$T/check.err"; fail "check failed"; }
j=$T/check.json
p='.processes[0]'
expect_json "$j" "$p.pid == $child and $p.scanned"
expect_json "$j" "$p.classes[\"definitely-lost\"] == {\"bytes\": $((9 * 7784)), \"objects\": 9}"
expect_json "$j" "[$p.leaks[] | select(.class == \"still-reachable\" and
	.stack[0].module == \"blocks of 60008 bytes\" and .objects == 64)] | length == 1"
finish_waiting
exit 0
