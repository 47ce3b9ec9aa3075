# 417: one damaged byte early in a real eventlog costs only its event
# block: the reader skips to the next block, says which bytes it skipped,
# and reads every census after them with the values of the intact file.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
bin=$(victim hs_lazy_thunk) || exit 1
(cd "$T" && "$bin" +RTS -l -hT -i0.01 -ol"$T/full.eventlog" -RTS > /dev/null) || fail "victim failed"
"$LEAKSCOPE" eventlog --format json -o "$T/full.json" "$T/full.eventlog" || fail "full exit $?"
python3 "$ROOT/tests/support/eventlog_events.py" "$T/full.eventlog" > "$T/events" || fail "cannot list events"
# the first block of a capability (the censuses are in the global one),
# and the block after it
block=$(awk '$2 == 18 && $3 != 65535 { print $1; exit }' "$T/events")
next=$(awk -v b="$block" '$2 == 18 && $1 > b { print $1; exit }' "$T/events")
[ -n "$block" ] && [ -n "$next" ] || fail "no capability block followed by another"
awk -v b="$block" -v n="$next" '$1 > b && $1 < n && $2 == 162 { exit 1 }' "$T/events" ||
	fail "a census in the block to damage"
# the type of its first event, then of one in its middle: undeclared
middle=$(awk -v b="$block" -v n="$next" '$1 > b && $1 < n { e[k++] = $1 } END { print e[int(k / 2)] }' "$T/events")
for at in $((block + 24)) $middle; do
	cp "$T/full.eventlog" "$T/bad.eventlog"
	printf '\356' | dd of="$T/bad.eventlog" bs=1 seek="$at" conv=notrunc 2> /dev/null
	"$LEAKSCOPE" eventlog --format json -o "$T/bad.json" "$T/bad.eventlog" 2> "$T/err" ||
		{ cat "$T/err"; fail "exit $? on a damaged file"; }
	cat "$T/err"
	j=$T/bad.json
	skipped="bytes $at-$((next - 1)) skipped: undeclared event type [0-9]+ at offset $at; read on from the next event block"
	expect_grep "$T/err" "^leakscope: warning: '.*bad.eventlog': $skipped$"
	expect_json "$j" ".warnings == [.warnings[0]] and (.warnings[0] | test(\"^$skipped\$\"))"
	jq --slurpfile full "$T/full.json" -e '
		.times_ns == $full[0].times_ns and .meta.censuses == $full[0].meta.censuses and
		[.bands[] | {id, values, stats}] == [$full[0].bands[] | {id, values, stats}]' "$j" > /dev/null ||
		fail "damage at $at: the censuses differ from those of the intact file"
done
exit 0
